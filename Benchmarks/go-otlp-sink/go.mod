module otlpsink

go 1.19
