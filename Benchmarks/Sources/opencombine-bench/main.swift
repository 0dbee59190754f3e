import BenchSupport

BenchMain.run(library: "OpenCombine", workloads: OpenCombineWorkloads.all())
