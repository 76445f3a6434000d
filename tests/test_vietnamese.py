"""Memory written in Vietnamese: time phrases, recall words, decay's current-truth guard,
reflect's opinions and consolidation, each read per fact (issue 35, items 2-5).

The design notes 002 and 003 tell their stories in Vietnamese; the ones that need no judge
are here as tests: Bun.js fading, confidence ranking, the Marrakech range expiring, "điều gì
đúng vào tháng 11 năm 2025".
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from conftest import ROOT
from memfold import Memory
from memfold.journal.fold import ARCHIVED, EXPIRED, SUPERSEDED
from memfold.language import looks_vietnamese
from memfold.recall.query import plan_query
from memfold.times.parse import extract_interval, find_time_phrase
from memfold.values import Interval

TODAY = date(2025, 12, 5)  # a Friday


def d(text: str) -> date:
    return date.fromisoformat(text)


def ids(result: object) -> list[str]:
    return [h.fact.id for h in result.hits]  # type: ignore[attr-defined]


def retain(memory: Memory, day: str, *bullets: str) -> list[str]:
    return [f.id for f in memory.retain(list(bullets), date=day).facts]


# -- time phrases -------------------------------------------------------------------------


@pytest.mark.parametrize(("phrase", "start", "end"), [
    ("điều gì xảy ra khoảng 27 tháng 11", "2025-11-24", "2025-11-30"),
    ("dieu gi xay ra khoang 27 thang 11", "2025-11-24", "2025-11-30"),
    ("ngày 27/11", "2025-11-27", "2025-11-27"),
    ("tháng 11 năm 2025", "2025-11-01", "2025-11-30"),
    ("thang 11 nam 2025", "2025-11-01", "2025-11-30"),
    ("tuần trước", "2025-11-24", "2025-11-30"),
    ("tháng trước", "2025-11-01", "2025-11-30"),
    ("hôm qua", "2025-12-04", "2025-12-04"),
    ("từ thứ Hai", "2025-12-01", "2025-12-05"),
    ("2 tuần trước", "2025-11-18", "2025-11-24"),
    ("3 ngày qua", "2025-12-02", "2025-12-05"),
    ("cuối tháng 11", "2025-11-21", "2025-11-30"),
    ("đầu năm nay", "2025-01-01", "2025-04-30"),
    ("mùa xuân năm ngoái", "2024-03-01", "2024-05-31"),
    ("trước ngày 27/11/2025", None, "2025-11-26"),
    ("hôm kia", "2025-12-03", "2025-12-03"),
    ("vào tháng 11/2025", "2025-11-01", "2025-11-30"),
    ("2 tuần gần đây", "2025-11-21", "2025-12-05"),
    ("vào mùa thu", "2025-09-01", "2025-11-30"),
])
def test_vietnamese_time_phrases(phrase: str, start: str | None, end: str) -> None:
    found = find_time_phrase(phrase, today=TODAY)
    assert found is not None
    assert found[0] == Interval(d(start) if start else None, d(end))


def test_the_phrase_span_is_cut_from_the_query_words() -> None:
    plan = plan_query("Peter làm gì khoảng 27 tháng 11", today=TODAY)
    assert plan.window == Interval(d("2025-11-24"), d("2025-11-30"))
    assert plan.terms == ("peter", "làm")


@pytest.mark.parametrize(("text", "today", "start", "end"), [
    ("cuối tháng 2 năm 0025", TODAY, "0025-02-21", "0025-02-28"),  # not "February 25"
    ("cuối tháng 11", date(2, 3, 1), "0001-11-21", "0001-11-30"),  # and never backwards
])
def test_a_part_of_a_month_in_an_early_year(text: str, today: date, start: str,
                                            end: str) -> None:
    found = find_time_phrase(text, today=today)
    assert found is not None and found[0] == Interval(d(start), d(end))


@pytest.mark.parametrize("text", [
    "peter ở đâu tháng 11 năm 2025",  # "đâu" (where) is not "đầu" (the start of)
    "peter o dau thang 11 nam 2025",
])
def test_where_is_not_the_start_of_a_month(text: str) -> None:
    found = find_time_phrase(text, today=TODAY)
    assert found is not None and found[0] == Interval(d("2025-11-01"), d("2025-11-30"))


@pytest.mark.parametrize("text", [
    "thứ hai là An",  # "thứ hai": the second, without a preposition
    "mua thu hoạch",  # to buy the harvest, not autumn
    "1/2 cốc sữa",  # a fraction
    "ddax chuyeenr sang MySQL", "Đ\u0300 ̃ ̃", "tháng 13", "ngày 31/2",
])
def test_what_is_no_vietnamese_time_is_none_and_never_an_error(text: str) -> None:
    assert find_time_phrase(text, today=TODAY) is None


@pytest.mark.parametrize(("content", "start", "end"), [
    ("Hiện ở Marrakech (27 tháng 11 – 1 tháng 12, 2025) cho sinh nhật Andy.",
     "2025-11-27", "2025-12-01"),
    ("Đi công tác Huế 27/11–1/12/2025.", "2025-11-27", "2025-12-01"),
    ("Nghỉ phép từ 28 - 30 tháng 12 năm 2025.", "2025-12-28", "2025-12-30"),
    ("Mượn xe của anh Tùng đến hết 15/12.", None, "2025-12-15"),
    ("Chị Vy nghỉ sinh từ 27/11 đến 1/12.", "2025-11-27", "2025-12-01"),
])
def test_vietnamese_validity_ranges(content: str, start: str | None, end: str) -> None:
    assert extract_interval(content, default_year=2025) == Interval(
        d(start) if start else None, d(end))


def test_slash_ranges_are_read_only_in_vietnamese_bullets() -> None:
    assert extract_interval("Mix 1/2 - 3/4 cup of flour.", default_year=2025) is None


# -- recall ---------------------------------------------------------------------------------


def test_vietnamese_question_words_are_dropped() -> None:
    assert plan_query("Nguyễn Văn An sống ở đâu?", today=TODAY).terms == (
        "nguyễn", "văn", "an", "sống")
    assert plan_query("Cô Thảo có dạy ở trường nào không?", today=TODAY).terms == (
        "cô", "thảo", "dạy", "trường")
    assert plan_query("khi nao Lan chuyen nha", today=TODAY).terms == ("lan", "chuyen", "nha")


def test_english_queries_keep_words_that_are_vietnamese_stop_words() -> None:
    assert "ai" in plan_query("which AI tools does the team use", today=TODAY).terms


def test_a_preference_question_is_an_opinion_question() -> None:
    assert plan_query("Peter thích gì?", today=TODAY).opinion
    assert plan_query("Lan ghet mon an nao", today=TODAY).opinion
    assert not plan_query("Peter sống ở đâu?", today=TODAY).opinion


# -- decay and the design notes' stories ----------------------------------------------------


def test_present_states_are_not_archived_by_time_alone(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-11-28") as memory:
        facts = retain(memory, "2025-11-27",
                       "W @Acme: Cơ sở dữ liệu chính của Acme là PostgreSQL.",
                       "O(c=0.95) @Peter: Thích phản hồi ngắn gọn (<1500 ký tự) trên WhatsApp",
                       "W @Acme: Acme đã chuyển hệ thống CRM từ Salesforce sang HubSpot.",
                       "W @Lan: Lan đã trở thành trưởng nhóm dữ liệu.")
    with Memory.open(workspace, now="2026-03-01") as memory:
        assert [memory.get(i, use=False).status for i in facts] == ["active"] * 4


def test_bun_js_fades_in_vietnamese_and_a_use_revives_it(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-07-10") as memory:
        [bun] = retain(memory, "2025-01-10",
                       "W(i=8) @build: Đang tìm hiểu Bun.js làm runtime cho bản build.")
        [node] = retain(memory, "2025-06-20", "W(i=5) @build: Bản build chạy trên Node 22.")
        result = memory.recall("bản build dùng runtime gì", k=5)
        assert ids(result)[0] == node
        assert next(h for h in result.hits if h.fact.id == bun).status == ARCHIVED
        memory.use(bun)
        assert memory.get(bun, use=False).status == "active"


def test_confidence_orders_equal_relevance_in_vietnamese(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-01-11") as memory:
        [weak] = retain(memory, "2025-01-10", "W(i=8,c=0.3) @x: Báo cáo quý về khinh khí cầu.")
        [sure] = retain(memory, "2025-01-10", "W(i=6,c=0.9) @y: Báo cáo quý về khinh khí cầu.")
        assert ids(memory.recall("báo cáo quý khinh khí cầu"))[:2] == [sure, weak]


def test_the_marrakech_range_expires(workspace: Path) -> None:
    bullet = "W @Peter: Hiện ở Marrakech (27 tháng 11 – 1 tháng 12, 2025) cho sinh nhật Andy."
    with Memory.open(workspace, now="2025-11-28") as memory:
        [trip] = retain(memory, "2025-11-27", bullet)
        assert ids(memory.recall("Peter ở đâu"))[0] == trip
    with Memory.open(workspace, now="2025-12-05") as memory:
        assert memory.get(trip, use=False).status == EXPIRED
        assert trip not in ids(memory.recall("Peter ở đâu"))
        then = memory.recall("Peter ở đâu tháng 11 năm 2025")
        assert then.window == Interval(d("2025-11-01"), d("2025-11-30"))
        assert ids(then)[0] == trip and then.hits[0].status == EXPIRED


def test_what_was_true_in_november_2025(workspace: Path) -> None:
    with Memory.open(workspace, now="2026-02-01") as memory:
        [nov] = retain(memory, "2025-11-12", "W @Acme: Acme dùng Jira để quản lý công việc.")
        [jan] = retain(memory, "2026-01-15", "W @Acme: Acme dùng Linear để quản lý công việc.")
        result = memory.recall("điều gì đúng vào tháng 11 năm 2025 về Acme")
        assert result.window == Interval(d("2025-11-01"), d("2025-11-30"))
        assert ids(result)[0] == nov
        assert ids(result).index(jan) > 0


def test_until_the_end_of_a_day_expires(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-12-20") as memory:
        [car] = retain(memory, "2025-12-01", "W @Tung: Mượn xe của anh Tùng đến hết 15/12.")
        assert memory.get(car, use=False).status == EXPIRED


# -- reflect: opinions and consolidation ----------------------------------------------------


def merged(memory: Memory, *bullets: str) -> list[list[str]]:
    ids_ = retain(memory, "2025-11-27", *bullets)
    content = {i: b.split(": ", 1)[1] for i, b in zip(ids_, bullets, strict=True)}
    return [sorted(content[i] for i in group) for _, group in memory.reflect(since="7d").merges]


def test_a_restatement_without_diacritics_is_consolidated(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-11-28") as memory:
        assert merged(memory, "W @An: An sống ở Đà Nẵng với gia đình.",
                      "W @An: An song o Da Nang voi gia dinh.") == [
            ["An song o Da Nang voi gia dinh.", "An sống ở Đà Nẵng với gia đình."]]


def test_a_negated_view_is_not_consolidated_with_the_view(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-11-28") as memory:
        assert merged(memory, "O @Peter: Thích phản hồi ngắn gọn trên WhatsApp.",
                      "O @Peter: Không thích phản hồi ngắn gọn trên WhatsApp.") == []


def test_vietnamese_evidence_moves_an_opinion(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-11-20") as memory:
        [coffee] = retain(memory, "2025-11-01", "O(c=0.6) @Minh: Minh thích cà phê sữa đá.")
        [tea] = retain(memory, "2025-11-01", "O(c=0.6) @Minh: Minh thích trà sen buổi sáng.")
        retain(memory, "2025-11-15", "B @Minh: Minh bảo ghét cà phê sữa đá vì quá ngọt.",
               "B @Minh: Minh hết thích trà sen buổi sáng, giờ uống nước ép.")
        # "hết thích" says the mind changed: the judge supersedes the opinion at retain
        assert memory.get(tea, use=False).status == SUPERSEDED
        plan = memory.reflect(since="30d")
        moved = {fact_id: (before, after) for fact_id, before, after in plan.confidence}
        assert moved[coffee][1] < moved[coffee][0]  # an opposite view, no change said


# -- detection per fact -----------------------------------------------------------------


@pytest.mark.parametrize(("text", "vietnamese"), [
    ("Anh Minh sống ở Hà Nội.", True),
    ("Anh Minh song o Ha Noi va lam viec tai FPT.", True),
    ("Alex lives in Berlin and works at SAP.", False),
    ("ddax chuyeenr", False),  # Telex leftovers: no language, language-neutral rules only
    ("", False),
    ("12345 @@@", False),
])
def test_language_is_told_per_text(text: str, vietnamese: bool) -> None:
    assert looks_vietnamese(text) is vietnamese


def test_a_mixed_workspace_reads_each_fact_in_its_language(workspace: Path) -> None:
    with Memory.open(workspace, now="2026-03-01") as memory:
        en, vi = retain(memory, "2025-11-01",
                        "W(i=3) @Alex: Alex was evaluating Bun.js for the build.",
                        "W(i=3) @Lan: Lan đã chuyển sang dùng Neovim.")
        telex = retain(memory, "2025-11-02", "W @Lan: ddax chuyeenr sang Helix 1/2 - 3/4")
        assert memory.get(en, use=False).status == ARCHIVED
        assert memory.get(vi, use=False).status == "active"
        assert memory.get(telex[0], use=False).status in ("active", ARCHIVED)
        assert ids(memory.recall("ddax chuyeenr sang gif", include_all=True))[0] == telex[0]


# -- the Vietnamese pair file ---------------------------------------------------------------


def test_the_vietnamese_pairs_cover_the_english_categories() -> None:
    from memfold_bench.judge_bench import read_pairs

    root = ROOT
    pairs = read_pairs(root / "benchmarks" / "data" / "contradictions-vi.jsonl")
    assert len(pairs) >= 60
    assert all(looks_vietnamese(p.old) and looks_vietnamese(p.new) for p in pairs)
    assert {p.category for p in pairs} >= ENGLISH_CATEGORIES


# The categories of the English development pairs (../shared/bench/contradictions-dev.jsonl,
# which sits beside the project and is not in a fresh clone): the Vietnamese file covers each.
ENGLISH_CATEGORIES = frozenset(
    "change-verb-long-object different-entity different-slot employer-role-change "
    "experience-old hypothetical-plan implicit-conflict is-chain location-move "
    "moved-something-else multi-valued negated-change negation-of-state numeric-update "
    "passive-fronted preference-reversal refinement relationship-change rename "
    "rename-other-slot replacement status-change temporary-visit third-party "
    "version-upgrade".split())


@pytest.mark.parametrize(("text", "view"), [
    ("Minh thích cà phê.", "for"), ("Minh khong thich ca phe.", "against"),
    ("Minh ghét cà phê.", "against"), ("Minh chẳng hề ưa ồn ào.", "against"),
    ("Minh hết thích trà.", "changed"), ("Minh không còn thích trà.", "changed"),
    ("Sức khoẻ của Minh yếu.", None),  # "yếu" (weak) is not "yêu" (to love)
    ("Minh likes coffee.", None),  # English: the judge's reading applies
])
def test_the_view_a_vietnamese_text_states(text: str, view: str | None) -> None:
    from memfold.reflect.text import vi_view

    assert vi_view(text) == view


def test_ascii_text_is_read_without_taking_marks_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """Recall and decay ask whether each fact reads as Vietnamese: plain ASCII (Vietnamese
    typed without marks too) has no marks to take off, and reads as it did."""
    import unicodedata

    from memfold import language

    normalized: list[str] = []
    normalize = unicodedata.normalize

    def spy(form: str, text: str) -> str:
        normalized.append(text)
        return normalize(form, text)

    monkeypatch.setattr(language.unicodedata, "normalize", spy)
    language.looks_vietnamese.cache_clear()
    assert looks_vietnamese("toi thich an pho voi nguoi ban")
    assert not looks_vietnamese("The build runs on Node.js 22 and the tests pass")
    assert normalized == []
    assert not looks_vietnamese("Café crème with Zoë")  # marks French shares
    assert normalized
    language.looks_vietnamese.cache_clear()
