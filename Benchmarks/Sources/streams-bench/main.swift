import BenchSupport

BenchMain.run(library: "Streams", workloads: StreamsWorkloads.all())
