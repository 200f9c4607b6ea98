"""The compiled paper as its reader sees it: its text, checked for Typst source that leaked into it and for an
abstract whose counts do not add up.

    python -m lrev.pdftext PDF     # prints each problem; exits 1 if there is one

Typst prints a markup or code fragment literally when it is escaped or quoted by mistake ("runs/#meta.scale/",
"else [..."): the compiler cannot see that, only a reader can. The abstract's counts come from numbers.json, but the
sentence that states them is prose, and a count in it can be left out, doubled or not agree with its noun.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from pypdf import PdfReader

#: What Typst source looks like when it reaches the page. A `#` that follows a word character or a slash-free
#: identifier is text (GITHUB#16418, IndexWriterConfig#setMaxDocValuesOverlays); one that starts a word is code.
LEAKS = {
    "a Typst expression": re.compile(r"(?<![\w#])#(?:[a-z][\w.-]*|\()"),
    "a Typst conditional": re.compile(r"\belse\s*\[|\]\s*else\b|\bif\s+[\w.]+\s*\["),
    "a Typst function call's bracket": re.compile(r"\)\[|\]\("),
}

#: The abstract's counts, in the order its sentence states them (paper/lucene-revisited.typ). Each noun or verb
#: must agree with its count: "1 cell holds", "2 cells hold".
COUNTS = {
    "applicable": r"Of the (\d+) applicable claim × release (cells?)",
    "holds": r"(\d+) (holds?)\b",
    "fails": r"(\d+) (fails?)\b",
    "answer": r"(\d+) (answers?) an open question",
    "inconclusive": r"(\d+) (is|are) inconclusive",
    "withheld": r"(\d+) (is|are) withheld",
    "untestable": r"\((\d+)() untestable",
    "underpowered": r"(\d+)() underpowered",
    "fell-behind": r"(\d+)() fell behind",
    "biased": r"(\d+)() biased",
    "unconverged": r"(\d+)() unconverged",
    "decided": r"(\d+) of \d+ \((?:\d+%|n/a)\) (is|are) decided",
}
SINGULAR = {"cell", "holds", "fails", "answers", "is"}
#: A count of one with a plural noun or verb, anywhere in the text (a version number's last digit is no count).
PLURAL_AFTER_ONE = re.compile(r"(?<![\w.\-])1 (cells|claims|studies|jobs|rules|rounds|forks|steps|iterations|runs|are|do|hold|fail)\b")
WITHHELD = ("untestable", "underpowered", "fell-behind", "biased", "unconverged")


def text(pdf: Path) -> str:
    """The PDF's text, page after page, with words that Typst hyphenated at a line's end joined again."""
    pages = "\n".join(page.extract_text() or "" for page in PdfReader(pdf).pages)
    return re.sub(r"(\w)-\n(\w)", r"\1\2", pages)


def leaks(page_text: str) -> list[str]:
    """Each fragment of Typst source in ``page_text``, with what it looks like and its surroundings."""
    found = []
    for what, pattern in LEAKS.items():
        for m in pattern.finditer(page_text):
            around = " ".join(page_text[max(0, m.start() - 30):m.end() + 30].split())
            found.append(f"{what} {m.group(0)!r} in “…{around}…”")
    return found


def abstract(page_text: str) -> str:
    """The abstract's sentence with the counts, on one line."""
    flat = " ".join(page_text.split())
    start = flat.find("Abstract.")
    if start < 0:
        raise ValueError("the paper has no abstract: no “Abstract.” in its text")
    return flat[start:flat.find(" This is the ", start) if " This is the " in flat[start:] else None]


def count_problems(page_text: str) -> list[str]:
    """What does not add up in the abstract's counts, or does not agree with its count in number."""
    sentence, problems, counts = abstract(page_text), [], {}
    for name, pattern in COUNTS.items():
        m = re.search(pattern, sentence)
        if m is None:
            problems.append(f"the abstract states no count of {name}: “{sentence[:200]}…”")
            continue
        counts[name] = int(m.group(1))
        if m.group(2) and (counts[name] == 1) != (m.group(2) in SINGULAR):
            problems.append(f"“{m.group(0)}” does not agree in number")
    if problems:
        return problems
    if sum(counts[v] for v in ("holds", "fails", "answer", "inconclusive", "withheld")) != counts["applicable"]:
        problems.append(f"the verdicts' counts do not add up to the {counts['applicable']} applicable cells: {counts}")
    if sum(counts[v] for v in WITHHELD) != counts["withheld"]:
        problems.append(f"the withheld verdicts' counts do not add up to {counts['withheld']}: {counts}")
    if counts["holds"] + counts["fails"] + counts["answer"] != counts["decided"]:
        problems.append(f"holds, fails and answers do not add up to the {counts['decided']} decided: {counts}")
    return problems


def disagreements(page_text: str) -> list[str]:
    """Each count of one that the text follows with a plural."""
    flat = " ".join(page_text.split())
    return [f"“{m.group(0)}” does not agree in number: “…{flat[max(0, m.start() - 40):m.end() + 20]}…”"
            for m in PLURAL_AFTER_ONE.finditer(flat)]


def problems(pdf: Path) -> list[str]:
    page_text = text(pdf)
    return leaks(page_text) + count_problems(page_text) + disagreements(page_text)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pdf", type=Path)
    found = problems(ap.parse_args(argv).pdf)
    print("\n".join(found) or "no leaked markup; the abstract's counts add up")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
