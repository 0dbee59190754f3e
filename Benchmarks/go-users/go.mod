module streamservice/benchmarks/go-users

go 1.19
