#!/usr/bin/env bash
# Builds the libFuzzer target for the HTTP request parser and runs it.
#   Fuzz/run.sh [seconds=600] [extra libFuzzer flags...]
# Output: /tmp/http-fuzz/ (binary, working corpus, crash artifacts, log).
# Not a package target, so plain `swift build` is unaffected.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN="${1:-600}"; shift || true
OUT="${FUZZ_OUT:-/tmp/http-fuzz}"
mkdir -p "$OUT/corpus" "$OUT/artifacts"
cp -n Fuzz/corpus/* "$OUT/corpus/" 2>/dev/null || true
swiftc -sanitize=fuzzer,address -parse-as-library -O -g \
  -module-name ParserFuzz \
  Sources/HTTPServer/HTTPRequestParser.swift Sources/HTTPServer/ParsedRequest.swift \
  Sources/HTTPServer/HTTPParseFailure.swift Sources/HTTPServer/HTTPParserLimits.swift \
  Sources/HTTPServer/StringProtocol+Trimming.swift Sources/HTTPServer/HTTPRequest.swift \
  Sources/HTTPServer/HTTPResponse.swift Sources/HTTPServer/Router.swift \
  Sources/HTTPServer/HTTPRequestHead.swift Sources/HTTPServer/HTTPHeaders+Encoding.swift \
  Sources/HTTPServer/ResponseEncoder.swift \
  Fuzz/ParserFuzzTarget.swift -o "$OUT/parser-fuzz"
"$OUT/parser-fuzz" "$OUT/corpus" Fuzz/corpus \
  -max_total_time="$SECONDS_TO_RUN" -max_len=4096 -timeout=5 -rss_limit_mb=1024 \
  -artifact_prefix="$OUT/artifacts/" -print_final_stats=1 "$@" 2>&1 | tee "$OUT/fuzz.log"
