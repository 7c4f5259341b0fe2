"""The bulk download's folders read from a zip or a directory within bounds: nothing outside its folder, no link
followed, no entry past its size however small it claims to be."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from search_core.kinds.statutes.egov import bundle
from search_core.kinds.statutes.egov.bundle import Reading, law_files
from search_core.kinds.statutes.egov.law_xml import LawXmlError
from tests.unit.statutes.test_law_xml import FOLDER, law

XML = law("<MainProvision/>")


def zipped(path: Path, entries: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return path


def test_a_zip_gives_each_law_folders_xml_and_skips_the_rest(tmp_path: Path) -> None:
    """Given the download's layout under a top folder, with figures and a list beside the laws."""
    source = zipped(
        tmp_path / "all.zip",
        {f"all/{FOLDER}/{FOLDER}.xml": XML, f"all/{FOLDER}/pict/fig.jpg": b"\xff", "all/list.csv": b"a,b"},
    )
    reading = Reading()
    assert [(folder, data) for folder, data in law_files(source, reading)] == [(FOLDER, XML)]
    assert reading.skipped == 2


@pytest.mark.parametrize("name", ["../evil.xml", f"../{FOLDER}/{FOLDER}.xml", "/etc/passwd", "a\\..\\b.xml", "C:/x"])
def test_a_zip_entry_outside_its_folders_refuses_the_whole_zip(tmp_path: Path, name: str) -> None:
    source = zipped(tmp_path / "evil.zip", {f"{FOLDER}/{FOLDER}.xml": XML, name: b"x"})
    with pytest.raises(LawXmlError, match="フォルダの外"):
        list(law_files(source, Reading()))


def test_a_zip_bomb_stops_at_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Given an entry far larger once inflated than the limit: it is refused by its declared size."""
    monkeypatch.setattr(bundle, "MAX_XML_BYTES", 100_000)
    source = zipped(tmp_path / "bomb.zip", {f"{FOLDER}/{FOLDER}.xml": b"<Law>" + b" " * 10_000_000})
    assert source.stat().st_size < 100_000
    with pytest.raises(LawXmlError, match="大きすぎます"):
        list(law_files(source, Reading()))


def test_an_entry_lying_about_its_size_is_read_no_further_than_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a zip whose header declares a small size for a large entry: reading stops at the limit anyway."""
    monkeypatch.setattr(bundle, "MAX_XML_BYTES", 1_000)
    source = zipped(tmp_path / "liar.zip", {f"{FOLDER}/{FOLDER}.xml": b"<Law>" + b" " * 50_000})
    with zipfile.ZipFile(source) as archive:
        entry = archive.infolist()[0]
    entry.file_size = 10  # what a forged header would say
    with zipfile.ZipFile(source) as archive, pytest.raises((LawXmlError, zipfile.BadZipFile)):
        bundle._read_bounded(archive, entry)


def test_the_total_of_all_entries_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bundle, "MAX_TOTAL_XML_BYTES", len(XML) * 2)
    folders = [FOLDER.replace("_2024", f"_20{year}") for year in (21, 22, 23)]
    source = zipped(tmp_path / "many.zip", {f"{folder}/{folder}.xml": XML for folder in folders})
    with pytest.raises(LawXmlError, match="合計"):
        list(law_files(source, Reading()))


def test_a_directory_gives_each_law_folders_xml_and_follows_no_link(tmp_path: Path) -> None:
    (tmp_path / FOLDER).mkdir()
    (tmp_path / FOLDER / f"{FOLDER}.xml").write_bytes(XML)
    secret = tmp_path.parent / "secret.xml"
    secret.write_bytes(b"<Law>secret</Law>")
    linked = FOLDER.replace("_2024", "_2025")
    (tmp_path / linked).mkdir()
    (tmp_path / linked / f"{linked}.xml").symlink_to(secret)
    (tmp_path / "notes.txt").write_text("x")
    reading = Reading()
    assert [folder for folder, _ in law_files(tmp_path, reading)] == [FOLDER]
    assert reading.skipped == 2


def test_a_file_that_is_neither_zip_nor_directory_is_refused(tmp_path: Path) -> None:
    (tmp_path / "laws.tar").write_bytes(b"not a zip")
    with pytest.raises(LawXmlError, match="zip かフォルダ"):
        list(law_files(tmp_path / "laws.tar", Reading()))


def test_a_damaged_entry_is_an_error_naming_it(tmp_path: Path) -> None:
    """Given a zip whose deflate stream is damaged after its header was written."""
    source = zipped(tmp_path / "damaged.zip", {f"{FOLDER}/{FOLDER}.xml": XML * 50})
    data = bytearray(source.read_bytes())
    start = data.index(b"PK\x03\x04") + 30 + len(f"{FOLDER}/{FOLDER}.xml")
    data[start + 5 : start + 40] = b"\xff" * 35
    source.write_bytes(bytes(data))
    with pytest.raises(LawXmlError, match=f"zip の「{FOLDER}/{FOLDER}.xml」を展開できません"):
        list(law_files(source, Reading()))


def test_a_zip_listing_too_many_entries_is_refused_by_its_count_before_its_listing_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bundle, "MAX_ZIP_ENTRIES", 10)
    source = zipped(tmp_path / "many.zip", {f"x/{n}.txt": b"" for n in range(11)})
    assert bundle.zip_entries(source) == 11
    monkeypatch.setattr(zipfile.ZipFile, "__init__", None)  # the listing is never opened
    with pytest.raises(LawXmlError, match="11 件"):
        list(law_files(source, Reading()))


def test_a_listing_past_65535_entries_is_counted_from_its_zip64_record(tmp_path: Path) -> None:
    """The end of central directory says 0xFFFF entries then; the zip64 record holds the count."""
    source = zipped(tmp_path / "z64.zip", {f"{n}": b"" for n in range(70_000)})
    assert source.read_bytes().find(b"PK\x06\x06") > 0
    assert bundle.zip_entries(source) == 70_000
