#!/bin/sh
# The request cap's table held just under its bound (main.swift says how), built with swiftc -O -wmo
# (specialised as in a SwiftPM release build) from the limiter's sources as of REV (default: the
# working tree), the rest stubbed.
#
#     Benchmarks/rate-table/run.sh [REV] [SECONDS]
set -eu
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
rev=${1:-}
seconds=${2:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for name in LocalRateLimiter DebtTable RatePolicy RateDecision CoarseClock AddressDebts BoundedDebts; do
    path="Sources/Server/RateLimit/$name.swift"
    if [ -n "$rev" ]; then
        git -C "$root" show "$rev:$path" > "$work/$name.swift" 2>/dev/null || rm -f "$work/$name.swift"
    elif [ -f "$root/$path" ]; then
        cp "$root/$path" "$work/"
    fi
done
sed -i -e '/^import NetCore$/d' -e '/^import HTTP$/d' -e '/^import StreamServiceConcurrency$/d' "$work"/*.swift
cp "$root/Sources/StreamServiceConcurrency/Locked.swift" "$root/Sources/StreamServiceConcurrency/Duration+Conversions.swift" \
    "$root/Sources/NetCore/String+Whitespace.swift" "$root/Benchmarks/rate-table/Stubs.swift" "$root/Benchmarks/rate-table/main.swift" "$work/"
swiftc -O -wmo -package-name ratetable -module-name RateTable "$work"/*.swift -o "$work/rate-table"
"$work/rate-table" "$seconds"
