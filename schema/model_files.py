"""Where the models unpacked at install time lie: shared by the step that installs them (services/models.py)
and the embedders that load them (ingest/embedders/), which never import each other."""

from __future__ import annotations

from typing import NamedTuple


class ModelFiles(NamedTuple):
    folder: str  # under Settings.model_dir
    model: str
    tokenizer: str
    install: str  # the command that installs it, for the error when it is missing


BGE_SMALL = ModelFiles("bge-small-en-v1.5-q", "model.onnx", "tokenizer.json",
                       "`strata services models` (or `make models`)")
