"""The human-validation kit: a stratified sample as an annotation page, and the import of judgments.

* :func:`write_sheet` (``chronoqa validate sample``): ``sheet.html`` (self-contained, keyboard-driven,
  no server), ``sheet.csv`` and ``sample.json`` of a stratified sample (operator × hops for KG releases,
  relation × cardinality for table ones).
* :func:`import_judgments` (``chronoqa validate import``): agreement (Cohen's kappa / Krippendorff's
  alpha with bootstrap CIs), consensus, TempBench-style ``low_confidence.jsonl`` and error rates with
  CIs per cell.

The judgments and their definitions are in :mod:`chronoqa.validate.protocol` and
``docs/annotation-protocol.md``.
"""

from __future__ import annotations

from chronoqa.validate.agreement import Agreement, agreement, cohen_kappa, krippendorff_alpha
from chronoqa.validate.importer import ValidationResult, import_judgments, read_sheet
from chronoqa.validate.protocol import FLAGGING, JUDGMENTS, JUDGMENTS_FORMAT
from chronoqa.validate.sample import cell_of, stratified_sample, write_sheet

__all__ = [
    "FLAGGING",
    "JUDGMENTS",
    "JUDGMENTS_FORMAT",
    "Agreement",
    "ValidationResult",
    "agreement",
    "cell_of",
    "cohen_kappa",
    "import_judgments",
    "krippendorff_alpha",
    "read_sheet",
    "stratified_sample",
    "write_sheet",
]
