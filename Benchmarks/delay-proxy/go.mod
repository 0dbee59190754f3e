module delayproxy

go 1.19
