#!/usr/bin/env bash
# Builds a libFuzzer target and runs it.
#   Fuzz/run.sh [http|roadmap|markdown] [seconds=600] [extra libFuzzer flags...]
#     http      the HTTP request parser (Fuzz/ParserFuzzTarget.swift; the default)
#     roadmap   RoadmapFormat's reader, validator and writer, checked against Foundation's
#               JSONDecoder (Fuzz/RoadmapFuzzTarget.swift)
#     markdown  the web board's release-notes renderer: only allowed, balanced, escaped HTML
#               (Fuzz/MarkdownFuzzTarget.swift)
# Output: /tmp/TARGET-fuzz/ (binary, working corpus, crash artifacts, log).
# Not package targets, so plain `swift build` is unaffected. Replay a crash with
#   /tmp/TARGET-fuzz/TARGET-fuzz /tmp/TARGET-fuzz/artifacts/crash-…
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=http
case "${1:-}" in http | roadmap | markdown) TARGET=$1; shift ;; esac
SECONDS_TO_RUN="${1:-600}"; shift || true
OUT="${FUZZ_OUT:-/tmp/$TARGET-fuzz}"
mkdir -p "$OUT/corpus" "$OUT/artifacts"
FLAGS=(-sanitize=fuzzer,address -parse-as-library -O -g)

if [ "$TARGET" = http ]; then
  cp -n Fuzz/corpus/* "$OUT/corpus/" 2>/dev/null || true
  swiftc "${FLAGS[@]}" -module-name ParserFuzz \
    Sources/HTTPServer/HTTPRequestParser.swift Sources/HTTPServer/ParsedRequest.swift \
    Sources/HTTPServer/HTTPParseFailure.swift Sources/HTTPServer/HTTPParserLimits.swift \
    Sources/HTTPServer/StringProtocol+Trimming.swift Sources/HTTPServer/HTTPRequest.swift \
    Sources/HTTPServer/HTTPResponse.swift Sources/HTTPServer/Router.swift \
    Sources/HTTPServer/HTTPRequestHead.swift Sources/HTTPServer/HTTPHeaders+Encoding.swift \
    Sources/HTTPServer/ResponseEncoder.swift \
    Fuzz/ParserFuzzTarget.swift -o "$OUT/$TARGET-fuzz"
  SEEDS=(Fuzz/corpus)
  RUN_FLAGS=(-max_len=4096)
elif [ "$TARGET" = markdown ]; then
  swiftc "${FLAGS[@]}" -module-name MarkdownFuzz \
    Sources/WebBoard/Markdown.swift Sources/WebBoard/HTML.swift \
    Fuzz/MarkdownFuzzTarget.swift -o "$OUT/$TARGET-fuzz"
  SEEDS=(Fuzz/corpus-markdown)
  RUN_FLAGS=(-max_len=4096 -dict=Fuzz/markdown.dict)
else
  # The whole module, so the list cannot fall behind it.
  mapfile -t SOURCES < <(find Sources/RoadmapFormat -name '*.swift' | sort)
  swiftc "${FLAGS[@]}" -module-name RoadmapFuzz -package-name RoadmapBridge \
    "${SOURCES[@]}" Tests/TestProcess/UpstreamFeature.swift \
    Fuzz/RoadmapFuzzTarget.swift -o "$OUT/$TARGET-fuzz"
  cp -n Fuzz/corpus-roadmap/* Samples/roadmap.json Samples/broken-roadmap.json "$OUT/corpus/" \
    2>/dev/null || true
  SEEDS=(Fuzz/corpus-roadmap)
  RUN_FLAGS=(-max_len=8192 -dict=Fuzz/roadmap.dict)
fi

"$OUT/$TARGET-fuzz" "$OUT/corpus" "${SEEDS[@]}" "${RUN_FLAGS[@]}" \
  -max_total_time="$SECONDS_TO_RUN" -timeout=5 -rss_limit_mb=2048 \
  -artifact_prefix="$OUT/artifacts/" -print_final_stats=1 "$@" 2>&1 | tee "$OUT/fuzz.log"
