"""The rule judge reads Vietnamese (issue 35, item 1): changes, current states and slots,
and the guards, with or without diacritics, from one set of rules and a Vietnamese lexicon."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import ROOT
from memfold import Memory
from memfold.journal.fold import SUPERSEDED
from memfold.language import looks_vietnamese
from memfold.lifecycle.judge.rules import RuleJudge
from memfold.names import strip_marks
from memfold.values import Fact
from memfold.workspace.format.bullets import parse_bullet

PAIRS = [json.loads(line) for line in
         (ROOT / "benchmarks" / "data" / "contradictions-vi.jsonl").read_text("utf-8").splitlines()]


def fact(bullet: str, fid: str) -> Fact:
    b = parse_bullet(bullet)
    return Fact(id=fid, kind=b.kind, content=b.content, path="memory/x.md", line=1, end_line=1,
                entities=tuple(b.entities), confidence=b.confidence)


def supersedes(old: str, new: str) -> bool:
    verdicts = RuleJudge().weigh(fact(new, "new"), [fact(old, "old")])
    return any(v.supersedes for v in verdicts)


@pytest.mark.parametrize("pair", PAIRS, ids=[p["id"] for p in PAIRS])
def test_the_vietnamese_pairs(pair: dict[str, str]) -> None:
    assert supersedes(pair["old"], pair["new"]) is pair["supersedes"], pair["why"]


# Typed without diacritics, a text too short to tell ("Duc con doc than") is not read as
# Vietnamese (memfold.language): the pairs whose both facts still read as Vietnamese.
PLAIN = [{**p, "old": strip_marks(p["old"]), "new": strip_marks(p["new"])} for p in PAIRS]
PLAIN = [p for p in PLAIN if looks_vietnamese(p["old"]) and looks_vietnamese(p["new"])]


def test_most_pairs_still_read_as_vietnamese_without_diacritics() -> None:
    assert len(PLAIN) * 3 >= len(PAIRS) * 2


@pytest.mark.parametrize("pair", PLAIN, ids=[p["id"] for p in PLAIN])
def test_the_vietnamese_pairs_typed_without_diacritics(pair: dict[str, str]) -> None:
    assert supersedes(pair["old"], pair["new"]) is pair["supersedes"], pair["why"]


LIVES = "W @Lan: Lan sống ở Hà Nội."


@pytest.mark.parametrize("new", [
    "W @Lan: Lan đã chuyển vào Sài Gòn sống.",
    "W @Lan: Lan đã chuyển từ Hà Nội vào Đà Nẵng.",
    "W @Lan: Lan bây giờ sống ở Huế.",
    "W @Lan: Lan da chuyen vao Sai Gon song.",
])
def test_a_move_supersedes_where_she_lives(new: str) -> None:
    assert supersedes(LIVES, new)


@pytest.mark.parametrize("new", [
    "W @Lan: Lan sẽ chuyển vào Sài Gòn.",  # a plan
    "W @Lan: Lan đang tính chuyển vào Sài Gòn.",
    "W @Lan: Lan nên chuyển vào Sài Gòn sống.",  # a suggestion
    "W @Lan: Lan đã chuyển vào Sài Gòn chưa?",  # a question
    "W @Lan: Chồng của Lan đã chuyển vào Sài Gòn sống.",  # someone else
    "W @Lan: Bạn của Lan đã chuyển vào Sài Gòn.",
    "W @Lan: Lan đang ở Sài Gòn tuần này.",  # a visit
    "W @Lan: Lan đi công tác Sài Gòn.",
    "W @Lan: Lan không chuyển vào Sài Gòn nữa.",  # did not happen
    "W @Lan: Lan đã huỷ việc chuyển vào Sài Gòn.",
    "W @Lan: Lan cũng có nhà ở Sài Gòn.",  # an addition
    "W @Lan: Lan se chuyen vao Sai Gon.",
    "W @Lan: Chong cua Lan da chuyen vao Sai Gon song.",
    "W @Lan: ddax chuyeenr sang Sài Gòn",  # Telex leftovers: read as well as can be
])
def test_guards_keep_where_she_lives(new: str) -> None:
    assert not supersedes(LIVES, new)


def test_a_vietnamese_change_supersedes_an_english_fact() -> None:
    assert supersedes("W @Acme: Acme's main database is PostgreSQL.",
                      "W @Acme: Acme đã chuyển cơ sở dữ liệu chính từ PostgreSQL sang MySQL.")


def test_the_postgresql_to_mysql_story_in_vietnamese(workspace: Path) -> None:
    """Design note 002's story as issue 35 tells it: the change supersedes at once."""
    with Memory.open(workspace, now="2025-11-28") as memory:
        old = memory.retain("W @Acme: Cơ sở dữ liệu chính của Acme là PostgreSQL.",
                            date="2025-06-01").facts[0]
        new = memory.retain("W @Acme: Acme đã chuyển cơ sở dữ liệu chính từ PostgreSQL "
                            "sang MySQL.", date="2025-11-27").facts[0]
        assert memory.get(old.id, use=False).status == SUPERSEDED
        assert memory.recall("cơ sở dữ liệu chính của Acme là gì").hits[0].fact.id == new.id


def test_an_english_fact_naming_a_vietnamese_person_is_read_as_english() -> None:
    assert supersedes("W @Bao: Bao's mentor at the firm is Mrs. Trần.",
                      "W @Bao: Bao has a new mentor, Mr. Lee, since Mrs. Trần left the firm.")


def test_telex_leftovers_are_read_only_by_language_neutral_rules() -> None:
    from memfold.lifecycle.judge.readers import read

    reading = read(fact("W @Lan: ddax chuyeenr tuwf Vim sang Helix 2", "t"))
    assert (reading.relation, reading.changes, reading.ends, reading.guard) == (None, (), (), None)
    assert ("editor", "helix") in reading.families
    assert not supersedes("W @Lan: Lan dùng Vim.", "W @Lan: ddax chuyeenr tuwf Vim sang Helix 2")


# Other phrasings: (older, newer, whether the newer supersedes)
MORE = [
    ("W @Minh: Minh sống ở Huế.",
     "W @Minh: Minh đã dọn ra Hà Nội ở.", True),
    ("W @Lan: Lan làm ở Shopee.",
     "W @Lan: Lan vừa chuyển sang Lazada làm.", True),
    ("W @Acme: Acme dùng AWS.",
     "W @Acme: Acme đã chuyển hạ tầng từ AWS sang Azure.", True),
    ("W @Hoa: Hoa là y tá.",
     "W @Hoa: Hoa giờ là bác sĩ.", True),
    ("W @An: An độc thân.",
     "W @An: An đã lấy vợ.", True),
    ("W @Bo: Bơ nặng 5 kg.",
     "W @Bo: Bơ giờ nặng 7 kg.", True),
    ("W @Sen: Sen dùng Node 18.",
     "W @Sen: Sen đã lên Node 20.", True),
    ("O(c=0.7) @Mai: Mai thích cà phê đen.",
     "O(c=0.8) @Mai: Mai đã đổi ý, giờ không thích cà phê đen nữa.", True),
    ("W @Khanh: Khánh hút thuốc lá.",
     "W @Khanh: Khánh đã cai thuốc lá.", True),
    ("W @Acme: Acme có 50 nhân viên.",
     "W @Acme: Acme hiện có 80 nhân viên.", True),
    ("W @Nam: Nam làm kỹ sư ở Viettel.",
     "W @Nam: Nam đã thôi việc ở Viettel.", True),
    ("W @App: Ứng dụng đang ở bản beta.",
     "W @App: Ứng dụng đã chính thức phát hành.", True),
    ("W @Hai: Hải là thành viên đội bóng Sao Vàng.",
     "W @Hai: Hải đã rời đội bóng Sao Vàng.", True),
    ("W @Vy: Vy làm việc cho Grab.",
     "W @Vy: Vy đã nghỉ Grab.", True),
    ("W @Vy: Vy sống ở Quận 3.",
     "W @Vy: Bây giờ Vy sống ở Quận 7.", True),
    ("W @Acme: Trụ sở của Acme ở Hà Nội.",
     "W @Acme: Acme đã dời trụ sở vào TP.HCM.", True),
    ("W @Minh: Minh sống ở Huế.",
     "W @Minh: Minh đang cân nhắc chuyển ra Hà Nội.", False),
    ("W @Minh: Minh sống ở Huế.",
     "W @Minh: Minh ra Hà Nội dự đám cưới bạn.", False),
    ("W @Minh: Minh sống ở Huế.",
     "W @Minh: Em trai Minh đã chuyển ra Hà Nội.", False),
    ("W @Minh: Minh sống ở Huế.",
     "W @Minh: Minh có lẽ sẽ chuyển ra Hà Nội.", False),
    ("W @Lan: Lan dùng Vim.",
     "W @Lan: Lan cũng dùng VS Code cho Python.", False),
    ("W @Lan: Lan làm ở Shopee.",
     "W @Lan: Lan được Tiki mời về nhưng Lan từ chối.", False),
    ("W @Acme: Acme dùng PostgreSQL.",
     "W @Acme: Có nên chuyển Acme sang MySQL không?", False),
    ("W @Hoa: Hoa sống ở Đà Lạt.",
     "W @Hoa: Hoa về quê ăn Tết.", False),
    ("W @Nam: Nam là kỹ sư.",
     "W @Nam: Nam là con trai út trong nhà.", False),
    ("W @Nam: Nam sống ở Hà Nội.",
     "W @Nam: Vợ Nam chuyển công tác vào Huế.", False),
    ("W @Nam: Nam sống ở Hà Nội.",
     "W @Nam: Nam ở Huế hai tuần để làm dự án.", False),
    ("W @Nam: Nam làm ở FPT.",
     "W @Nam: Nam đang phỏng vấn ở VNG.", False),
    ("W @Nam: Nam làm ở FPT.",
     "W @Nam: Nam hỏi có nên sang VNG không.", False),
    ("W @Acme: Acme dùng Slack.",
     "W @Acme: Acme dùng thêm Discord cho cộng đồng.", False),
    ("W @Phuong: Quản lý trực tiếp của Phương là anh Sơn.",
     "W @Phuong: Phương giờ báo cáo cho chị Vy.", True),
    ("W @Phuong: Phương báo cáo cho anh Sơn.",
     "W @Phuong: Sếp của Phương bây giờ là chị Vy.", True),
]


@pytest.mark.parametrize(("old", "new", "expected"), MORE)
def test_other_phrasings(old: str, new: str, expected: bool) -> None:
    assert supersedes(old, new) is expected


def test_design_note_002_told_in_vietnamese(workspace: Path) -> None:
    """Note 002: many weighty memories say PostgreSQL; three months on, one light mention of
    the switch to MySQL; six months later the database in use is MySQL."""
    with Memory.open(workspace, now="2025-10-10") as memory:
        old = memory.retain("W(i=8) @me: Tôi đang dùng PostgreSQL làm cơ sở dữ liệu.",
                            date="2025-01-10").facts[0]
        memory.retain(["W(i=8) @me: Tôi tối ưu chỉ mục PostgreSQL cho bảng đơn hàng.",
                       "W(i=8) @me: Bản sao lưu PostgreSQL chạy mỗi đêm."], date="2025-01-20")
        new = memory.retain("W(i=2) @me: Tôi đã chuyển sang MySQL.", date="2025-04-10").facts[0]
        assert memory.get(old.id, use=False).status == SUPERSEDED
        hits = memory.recall("tôi đang dùng cơ sở dữ liệu nào").hits
        assert hits[0].fact.id == new.id
