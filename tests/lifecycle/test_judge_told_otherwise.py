"""States told by what they do rather than by their slot word (issue 29, judge29i): work told
by what one does for an organisation, a home told by a commute or a new place, and the like —
offered as conflicts when the rules cannot read them for sure, never taken."""

from __future__ import annotations

import pytest
from judge_pairs import superseded, verdicts


def _offered(old: str, new: str) -> bool:
    return any(v.offer and not v.supersedes for v in verdicts(old, new))


@pytest.mark.parametrize(("old", "new"), [
    ("W @Ciaran: Ciaran works at Greenhill Bank.",
     "W @Ciaran: Ciaran writes software for Lunar Freight these days."),
    ("W @Noor: Noor is a pharmacist at Boots.",
     "W @Noor: Noor dispenses at a Lloyds pharmacy in town these days."),
    ("W @Aurelie: Aurelie works for Danone.",
     "W @Aurelie: Aurelie reports to the head of marketing at L'Oreal now."),
    ("W @Ruaidhri: Ruaidhri teaches at St Columb's.",
     "W @Ruaidhri: Ruaidhri is the head of history at Thornhill College now."),
])
def test_work_told_by_what_one_does_for_another_organisation_is_offered(old: str,
                                                                        new: str) -> None:
    assert _offered(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("W @Kit: Kit works at Shopify.", "W @Kit: Kit reports to the payments lead at Shopify now."),
    ("W @Signy: Signy works at Equinor.",
     "W @Signy: Signy's husband reports to the head of drilling at Aker BP now."),
    ("W @Beatrix: Beatrix works at Arup.",
     "W @Beatrix: Beatrix might write reports for Atkins next year."),
    ("W @Ciaran: Ciaran works at Greenhill Bank.",
     "W @Ciaran: Ciaran writes software for Lunar Freight."),  # not said to hold now
])
def test_the_same_organisation_someone_else_or_a_plan_is_not_offered_as_work(old: str,
                                                                            new: str) -> None:
    assert verdicts(old, new) == [] or not _offered(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("W @me: I live in Hull.", "W @me: Our new place in York has a big kitchen."),
    ("W @Pieter: Pieter lives in Delft.",
     "W @Pieter: Pieter walks to work from his new flat in Leiden."),
    ("W @Agnese: Agnese lives in Riga.", "W @Agnese: Since relocating to Tallinn, Agnese rows."),
])
def test_a_new_home_of_ones_own_or_a_relocation_in_passing_is_offered(old: str,
                                                                      new: str) -> None:
    assert _offered(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("W @Pieter: Pieter lives in Delft.",
     "W @Pieter: Pieter's sister walks to work from her new flat in Leiden."),
    ("W @Pieter: Pieter lives in Delft.", "W @Pieter: Pieter might rent a new flat in Leiden."),
])
def test_someone_elses_new_home_or_a_plan_is_not_offered(old: str, new: str) -> None:
    assert not _offered(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("O(c=0.8) @Bastien: Bastien adores red wine.",
     "O(c=0.8) @Bastien: Bastien has gone right off red wine."),
    ("O(c=0.7) @Vidar: Vidar dislikes sea swimming.",
     "O(c=0.7) @Vidar: Vidar has grown fond of sea swimming."),
    ("O(c=0.8) @Lorna: Lorna prefers tea to coffee.",
     "O(c=0.8) @Lorna: Lorna drinks only coffee now; she's given up tea."),
])
def test_a_liking_gone_off_grown_into_or_given_up_supersedes(old: str, new: str) -> None:
    assert superseded(old, new)


def test_a_liking_said_again_is_no_change() -> None:
    assert not superseded("O(c=0.8) @Bastien: Bastien adores red wine.",
                          "O(c=0.8) @Bastien: Bastien has grown fond of red wine.")


def test_a_fronted_passive_is_read_as_its_clause() -> None:
    assert superseded("W @Linnea: Linnea's garden is watered by hand.",
                      "W @Linnea: Watered by a drip system since June, Linnea's garden needs "
                      "little attention.")


def test_a_value_from_this_season_on_holds_now_and_is_offered() -> None:
    assert _offered("W @Corran-Ferry: The Corran ferry is operated by the council.",
                    "W @Corran-Ferry: Operated by CalMac from this season, the Corran ferry "
                    "runs later in summer.")


@pytest.mark.parametrize(("old", "new"), [
    ("W @Oren: Oren's knee is injured.",
     "W @Oren: Oren ran the half marathon pain-free; the knee has healed."),
    ("W @Haverly-Shop: The Haverly shop is closed for refurbishment.",
     "W @Haverly-Shop: Customers are back in the Haverly shop since the refit was done."),
])
def test_an_injury_healed_or_a_refit_done_is_its_status_reached(old: str, new: str) -> None:
    assert superseded(old, new)


def test_someone_elses_recovery_is_no_status_of_ones_own() -> None:
    assert not superseded("W @Oren: Oren's knee is injured.",
                          "W @Oren: Oren's brother has recovered from his knee injury.")


def test_a_service_an_at_mention_does_for_the_entity_is_the_entitys_fact() -> None:
    assert superseded("W @Ishaan: Ishaan's accountant is @Rhea.",
                      "W @Ishaan: @Devika does Ishaan's books since Rhea retired.")
    assert verdicts("W @Dorcas: @Finch-Accounts prepares Dorcas's tax return.",
                    "W @Dorcas: Dorcas hired @Penrose-Tax to file her returns from now on.")


def test_a_named_subject_doing_something_for_another_is_still_its_own_fact() -> None:
    assert verdicts("W @Sam: Sam lives in Leeds.",
                    "W @Sam @Priya: Sam fixes Priya's bike on Sundays now.") == []


def test_a_partner_named_in_passing_after_single_is_offered() -> None:
    assert _offered("W @Petronella: Petronella is single.",
                    "W @Petronella: Petronella and her fiancé set a date for June.")


@pytest.mark.parametrize("new", [
    "W @Pet: Pet's brother and his fiancé set a date for June.",
    "W @Pet: Pet and her ex-husband share the dog.",
])
def test_someone_elses_partner_or_a_former_one_is_not_offered(new: str) -> None:
    assert not _offered("W @Pet: Pet is single.", new)


def test_a_commute_from_another_place_said_to_hold_now_is_offered() -> None:
    assert _offered("W @Wiebke: Wiebke lives in Leipzig.",
                    "W @Wiebke: Wiebke's commute is now the S-Bahn from Potsdam into Berlin.")


@pytest.mark.parametrize("new", [
    "W @Wiebke: This week Wiebke commutes from her parents' place in Potsdam.",  # a stay
    "W @Wiebke: Wiebke's commute from Potsdam took two hours on the day of the strike.",
])
def test_a_commute_from_home_for_a_while_or_once_is_not_offered(new: str) -> None:
    assert not _offered("W @Wiebke: Wiebke lives in Leipzig.", new)


@pytest.mark.parametrize("new", [
    "W @Ana: Ana's home base is Porto now.",
    "W @Ana: Ana's registered address is in Porto now.",
])
def test_an_attribute_of_ones_home_said_to_hold_now_is_offered_as_a_home(new: str) -> None:
    assert _offered("W @Ana: Ana lives in Lisbon.", new)


def test_a_move_across_the_border_is_a_move() -> None:
    assert superseded("W @Ana: Ana lives in Lisbon.",
                      "W @Ana: Ana moved across the border to Vigo.")


def test_someone_elses_address_is_not_offered_as_a_home() -> None:
    assert not _offered("W @Ana: Ana lives in Lisbon.",
                        "W @Ana: Ana's sister's address is in Porto now.")


@pytest.mark.parametrize(("old", "new"), [
    ("W @Kip: Kip's visa is pending.", "W @Kip: Kip has his visa now."),
    ("W @Kip: Kip is on the waiting list for surgery.", "W @Kip: Kip had the surgery in March."),
])
def test_the_pending_thing_had_or_held_is_offered_as_its_status(old: str, new: str) -> None:
    assert _offered(old, new)


def test_a_place_got_into_decides_a_pending_application() -> None:
    assert superseded("W @Kip: Kip's application to Oxford is pending.",
                      "W @Kip: Kip got into Oxford.")


def test_another_thing_had_is_no_status_of_the_pending_one() -> None:
    assert not _offered("W @Kip: Kip's visa is pending.", "W @Kip: Kip has his passport now.")


def test_an_irregular_past_verb_ends_the_subject() -> None:
    assert superseded("W @Rae: Rae works at Greenhill Foods.",
                      "W @Rae: Rae took a role at Tidewater.")
    assert superseded("W @Yusuf: Yusuf lives in Ankara.",
                      "W @Yusuf: Yusuf took the transfer and moved to Izmir in April.")


def test_a_role_someone_else_took_is_no_change_of_job() -> None:
    assert not superseded("W @Rae: Rae works at Greenhill Foods.",
                          "W @Rae: Rae's brother took a role at Tidewater.")


@pytest.mark.parametrize("new", [
    "W @Rae: Rae is on the payroll at Tidewater now.",
    "W @Rae: Rae is a Tidewater employee now.",
    "W @Rae: Rae was poached by Tidewater.",
    "W @Rae: Rae signed a contract with Tidewater.",
])
def test_taken_on_by_another_organisation_is_offered_as_a_job(new: str) -> None:
    assert _offered("W @Rae: Rae works at Greenhill Foods.", new)


@pytest.mark.parametrize("new", [
    "W @Rae: Rae's husband was poached by Tidewater.",
    "W @Rae: Rae might sign with Tidewater.",
])
def test_someone_else_taken_on_or_a_plan_is_not_offered_as_a_job(new: str) -> None:
    assert not _offered("W @Rae: Rae works at Greenhill Foods.", new)
