#!/usr/bin/env python3
"""Writes a synthetic Roadmap JSON file for the benchmarks: N features, deterministic.

    python3 Benchmarks/gen_roadmap.py N OUT [--seed S] [--compact]

Every feature has an id that is a valid counter key, a title, a status that agrees with
isFinished, a description, and the same three localizations (en, de, ja) of title, status and
description, so `roadmapctl validate --strict` passes (exit 0): the benchmark then times the
reading and every rule, not error reporting. Some features carry a vote count and an unknown
key, as real files do. The same N and seed always give the same bytes.
"""
import argparse
import json
import random

WORDS = (
    "offline sync widget export calendar reminder search filter tag share folder theme dark "
    "light sound camera scan barcode import backup restore history chart budget goal streak "
    "focus timer note list board card comment mention badge invite family team plan report"
).split()
STATUSES = [  # (en, de, ja, finished)
    ("planned", "geplant", "予定", False),
    ("in-progress", "in Arbeit", "進行中", False),
    ("in review", "in Prüfung", "レビュー中", False),
    ("finished", "fertig", "完了", True),
]
JA = "機能改善追加同期検索共有表示設定通知保存履歴予定"


def phrase(rng, low, high):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


def feature(rng, index):
    en_title = phrase(rng, 2, 5).capitalize()
    en_text = phrase(rng, 8, 30).capitalize() + "."
    de_title = "Neu: " + en_title
    de_text = "Beschreibung: " + en_text
    ja_title = "".join(rng.choice(JA) for _ in range(rng.randint(3, 8)))
    ja_text = "".join(rng.choice(JA) for _ in range(rng.randint(10, 40))) + "。"
    en_status, de_status, ja_status, finished = rng.choice(STATUSES)
    item = {
        "id": f"f{index:06d}-{rng.randrange(16**6):06x}",
        "title": en_title,
        "status": en_status,
        "description": en_text,
        "isFinished": finished,
        "localizedTitle": [
            {"language": "en", "value": en_title},
            {"language": "de", "value": de_title},
            {"language": "ja", "value": ja_title},
        ],
        "localizedStatus": [
            {"language": "en", "value": en_status},
            {"language": "de", "value": de_status},
            {"language": "ja", "value": ja_status},
        ],
        "localizedDescription": [
            {"language": "en", "value": en_text},
            {"language": "de", "value": de_text},
            {"language": "ja", "value": ja_text},
        ],
    }
    if rng.random() < 0.3:
        item["votes"] = rng.randrange(10_000)
    if rng.random() < 0.1:
        item["url"] = f"https://example.com/features/{index}"
    return item


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int, help="number of features")
    parser.add_argument("out", help="file to write")
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--compact", action="store_true", help="no whitespace (a minified file)")
    args = parser.parse_args()
    if args.count < 0:
        parser.error("count must be 0 or more")
    rng = random.Random(args.seed)
    features = [feature(rng, index) for index in range(1, args.count + 1)]
    with open(args.out, "w", encoding="utf-8") as out:
        if args.compact:
            json.dump(features, out, ensure_ascii=False, separators=(",", ":"))
        else:
            json.dump(features, out, ensure_ascii=False, indent=2)
        out.write("\n")


if __name__ == "__main__":
    main()
