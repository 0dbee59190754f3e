module streamservice/bench/go-h2-peer

go 1.19
