"""The law XML files of e-Gov's bulk download, from a zip or a directory of its folders (`<law id>_<date>_<amending
law id>/<same>.xml`), read within bounds: no entry outside its folder, no symbolic link followed, no file or total
past its limit however its size is declared (a zip bomb stops at the limit, with an error that says so). Anything
else the download holds (figures, lists) is skipped and counted."""

from __future__ import annotations

import lzma
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from search_core.kinds.statutes.egov.law_xml import FOLDER, LawXmlError
from search_core.kinds.statutes.limits import MAX_TOTAL_XML_BYTES, MAX_XML_BYTES, MAX_ZIP_ENTRIES

_CHUNK = 1024 * 1024
# A zip's end of central directory, the zip64 locator before it and the zip64 record it points to; the end is within
# its 22 bytes and a comment of at most 65,535 from the end of the file.
_EOCD, _ZIP64_LOCATOR, _ZIP64_EOCD = b"PK\x05\x06", b"PK\x06\x07", b"PK\x06\x06"
_EOCD_SEARCH = 22 + 65_535
# What inflating a damaged, encrypted or exotic entry raises (bzip2's errors are OSErrors).
_UNREADABLE = (zipfile.BadZipFile, zlib.error, lzma.LZMAError, EOFError, OSError, NotImplementedError, RuntimeError)


@dataclass
class Reading:
    """What a bundle held besides its laws: entries skipped, and the bytes of XML read so far."""

    skipped: int = 0
    xml_bytes: int = 0
    skipped_names: list[str] = field(default_factory=list)

    def skip(self, name: str) -> None:
        self.skipped += 1
        if len(self.skipped_names) < 5:
            self.skipped_names.append(name[:120])

    def count(self, size: int, name: str) -> None:
        self.xml_bytes += size
        if self.xml_bytes > MAX_TOTAL_XML_BYTES:
            raise LawXmlError(
                f"法令 XML の合計が {MAX_TOTAL_XML_BYTES // 1024**3} GB を超えました（「{name}」まで）。"
                "分けて準備してください。"
            )


def law_files(path: Path, reading: Reading) -> Iterator[tuple[str, bytes]]:
    """Each law XML of the zip or directory at `path`, as its folder's name and its bytes."""
    if path.is_dir():
        yield from _from_directory(path, reading)
    elif zipfile.is_zipfile(path):
        yield from _from_zip(path, reading)
    else:
        raise LawXmlError(
            "法令データは e-Gov の一括ダウンロード形式の zip かフォルダ、または準備済みファイルにしてください。"
        )


def law_xml_bytes(path: Path) -> int:
    """How many bytes of law XML the zip or directory at `path` holds, as its listing says (nothing is read)."""
    if path.is_dir():
        return sum(
            xml.stat().st_size
            for folder in path.iterdir()
            if FOLDER.fullmatch(folder.name) and not folder.is_symlink()
            for xml in [folder / f"{folder.name}.xml"]
            if xml.is_file() and not xml.is_symlink()
        )
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            return sum(entry.file_size for entry in archive.infolist() if _listed_law(entry.filename))
    return 0


def _listed_law(name: str) -> bool:
    try:
        return _law_folder(name) is not None
    except LawXmlError:
        return False


def _from_directory(root: Path, reading: Reading) -> Iterator[tuple[str, bytes]]:
    for folder in sorted(root.iterdir()):
        if folder.is_symlink() or not folder.is_dir() or not FOLDER.fullmatch(folder.name):
            reading.skip(folder.name)
            continue
        xml = folder / f"{folder.name}.xml"
        if xml.is_symlink() or not xml.is_file():
            reading.skip(folder.name)
            continue
        size = xml.stat().st_size
        _check_size(size, f"{folder.name}/{xml.name}")
        reading.count(size, xml.name)
        yield folder.name, xml.read_bytes()


def _from_zip(path: Path, reading: Reading) -> Iterator[tuple[str, bytes]]:
    listed = zip_entries(path)
    if listed > MAX_ZIP_ENTRIES:  # refused before zipfile reads the whole listing into memory
        raise LawXmlError(f"zip の項目が多すぎます（{listed:,} 件。上限 {MAX_ZIP_ENTRIES:,} 件）。")
    with zipfile.ZipFile(path) as archive:
        entries = archive.infolist()
        for entry in sorted(entries, key=lambda entry: entry.filename):
            folder = _law_folder(entry.filename)
            if folder is None or entry.is_dir():
                reading.skip(entry.filename)
                continue
            _check_size(entry.file_size, entry.filename)
            try:
                data = _read_bounded(archive, entry)
            except (
                zipfile.BadZipFile,
                zlib.error,
                lzma.LZMAError,
                EOFError,
                OSError,
                NotImplementedError,
                RuntimeError,
            ) as error:
                raise LawXmlError(f"zip の「{entry.filename[:120]}」を展開できません: {str(error)[:200]}") from None
            reading.count(len(data), entry.filename)
            yield folder, data


def zip_entries(path: Path) -> int:
    """How many entries a zip says it lists, read from its end of central directory (zip64's too) without reading
    the listing; 0 when it says nothing readable (zipfile then refuses it)."""
    with path.open("rb") as stream:
        size = stream.seek(0, 2)
        stream.seek(max(size - _EOCD_SEARCH, 0))
        tail = stream.read()
        at = tail.rfind(_EOCD)
        if at < 0 or len(tail) < at + 22:
            return 0
        entries = int.from_bytes(tail[at + 10 : at + 12], "little")
        locator = at - 20
        if entries != 0xFFFF or locator < 0 or not tail.startswith(_ZIP64_LOCATOR, locator):
            return entries
        stream.seek(int.from_bytes(tail[locator + 8 : locator + 16], "little"))
        record = stream.read(40)
        return int.from_bytes(record[32:40], "little") if record.startswith(_ZIP64_EOCD) else entries


def _law_folder(name: str) -> str | None:
    """The folder of a law XML entry (`[top/]<folder>/<folder>.xml`), None for any other entry; an entry that would
    lie outside the zip's folders is refused.

    >>> _law_folder("all/129AC0000000089_20200401_429AC0000000044/129AC0000000089_20200401_429AC0000000044.xml")
    '129AC0000000089_20200401_429AC0000000044'
    >>> _law_folder("129AC0000000089_20200401_429AC0000000044/pict/a.jpg") is None
    True
    """
    parts = PurePosixPath(name).parts
    if name.startswith(("/", "\\")) or "\\" in name or ".." in parts or (parts and ":" in parts[0]):
        raise LawXmlError(f"zip の項目「{name[:120]}」はフォルダの外を指しています。この zip は読みません。")
    if len(parts) < 2 or parts[-1] != f"{parts[-2]}.xml" or not FOLDER.fullmatch(parts[-2]):
        return None
    return parts[-2]


def _check_size(size: int, name: str) -> None:
    if size > MAX_XML_BYTES:
        raise LawXmlError(f"「{name[:120]}」が大きすぎます（{size:,} バイト。上限 {MAX_XML_BYTES:,} バイト）。")


def _read_bounded(archive: zipfile.ZipFile, entry: zipfile.ZipInfo) -> bytes:
    """The entry's bytes, stopping past MAX_XML_BYTES whatever its header declares."""
    chunks: list[bytes] = []
    read = 0
    with archive.open(entry) as stream:
        while chunk := stream.read(_CHUNK):
            read += len(chunk)
            if read > MAX_XML_BYTES:
                raise LawXmlError(
                    f"「{entry.filename[:120]}」は展開すると {MAX_XML_BYTES:,} バイトを超えます（zip に書かれた"
                    f"大きさは {entry.file_size:,} バイト）。この zip は読みません。"
                )
            chunks.append(chunk)
    return b"".join(chunks)
