"""Reading and decoding source files into the one normalized text every offset refers to.

Normalized text: BOM removed, CRLF and lone CR turned into LF. Decoding tries UTF-8 first, then
cp1252 (the usual "wrong encoding" of Windows exports) and last latin-1, which never fails; the two
fallbacks are reported as warnings so nobody mistakes mojibake for content.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from strata.schema.errors import InputError

# Share of control characters (other than tab/newline/CR/form feed) above which text is binary.
_MAX_CONTROL_SHARE = 0.01
_ALLOWED_CONTROLS = {"\t", "\n", "\r", "\f", "\v"}


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str
    warnings: list[str] = field(default_factory=list)

    @property
    def fallback(self) -> bool:
        return self.encoding not in ("utf-8", "utf-8-sig", "utf-16")


def read_bytes(path: Path) -> bytes:
    """Read a file, turning every filesystem problem into an InputError that names the path."""
    if not path.exists():
        raise InputError(f"{path}: file does not exist", {"file": str(path)})
    if path.is_dir():
        raise InputError(f"{path}: is a directory, expected a file", {"file": str(path)})
    if not path.is_file():
        raise InputError(f"{path}: not a regular file", {"file": str(path)})
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read file: {exc.strerror or exc}", {"file": str(path)}) from exc


def normalize_newlines(text: str) -> str:
    """CRLF and lone CR to LF, leading BOM removed: the text all offsets point into."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def decode_bytes(data: bytes, name: str) -> Decoded:
    """Decode raw bytes; raise InputError for empty or binary content."""
    if not data.strip():
        raise InputError(f"{name}: file is empty", {"file": name})
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        # UTF-16 with BOM contains NUL bytes legitimately, so it is checked before the binary test.
        try:
            return _checked(data.decode("utf-16"), "utf-16", name, [])
        except UnicodeDecodeError as exc:
            raise InputError(f"{name}: invalid UTF-16 text: {exc.reason}", {"file": name}) from exc
    if b"\x00" in data:
        offset = data.index(b"\x00")
        raise InputError(
            f"{name}: binary content (NUL byte at offset {offset}); expected a text file",
            {"file": name, "offset": offset},
        )
    try:
        return _checked(data.decode("utf-8-sig"), "utf-8", name, [])
    except UnicodeDecodeError as exc:
        where = f"byte 0x{data[exc.start]:02x} at offset {exc.start}"
    try:
        text = data.decode("cp1252")
        warning = f"{name}: not valid UTF-8 ({where}); decoded as cp1252"
        return _checked(text, "cp1252", name, [warning])
    except UnicodeDecodeError:
        pass
    warning = f"{name}: not valid UTF-8 ({where}) nor cp1252; decoded as latin-1, check the text"
    return _checked(data.decode("latin-1"), "latin-1", name, [warning])


def _checked(text: str, encoding: str, name: str, warnings: list[str]) -> Decoded:
    text = normalize_newlines(text)
    check_text(text, name)
    return Decoded(text=text, encoding=encoding, warnings=warnings)


def check_text(text: str, name: str) -> None:
    """Reject empty text and text that is mostly control characters (a binary file read as text)."""
    if not text.strip():
        raise InputError(f"{name}: file is empty", {"file": name})
    if "\x00" in text:
        raise InputError(f"{name}: binary content (NUL character); expected text", {"file": name})
    sample = text[:65536]
    controls = sum(1 for ch in sample if ch < " " and ch not in _ALLOWED_CONTROLS)
    if controls > _MAX_CONTROL_SHARE * len(sample):
        raise InputError(
            f"{name}: binary content ({controls} control characters in the first {len(sample)}); expected a text file",
            {"file": name},
        )
