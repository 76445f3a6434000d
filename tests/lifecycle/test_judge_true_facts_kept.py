"""True facts a year of personal memory kept being retired by (issue 29): a summary of a past
month, an end verb read in an adjective ("my left knee", "a retired captain") or in "left me
confused", a sale read as the end of whoever bought, a heading read as the subject of a passive
("Fall menu: ..., duck was dropped"), an amount of money for another thing (an offer on a house
against the rent, a mortgage against a salary), a person read as a single-valued slot ("Mom is
..."), a slot noun of another thing ("fish supplier" against "mobile provider"), where an adopted
pet came from, a product name inside another name ("Centre for Craft"), an opinion changed by a
word it shares, and an outcome of something else ("finished the audit" after "the beta slipped").
Each is left active (a conflict at most); the real changes beside them are still superseded."""

from __future__ import annotations

import pytest
from judge_pairs import superseded, verdicts

KEPT = [
    # a summary of a month or a year is that period's story
    ("S @me: March was all about the job change and house hunting.",
     "B @me: Our offer of £352,000 on a terraced house on Heslington Road was accepted."),
    ("S @me: January was mostly brass band, cold swims and marking mock exams.",
     "B @me @Cardiff-Central-Brass: Left the Cardiff Central Brass Band after ten years."),
    ("S @me: Most of January's training runs were on the railway path before work.",
     "W @me: Since the move, I run with Bishopston Runners on Tuesday evenings instead of the "
     "Easton Harriers."),
    ("O(c=0.8) @me: The lobster roll from the kiosk on Tenby harbour was the best thing I ate.",
     "S @me: September: the new role, Rory at a new school, Moss on new food."),
    ("S @me: February: the diabetes news, the sore shoulder and Kai settling into Year 10.",
     "S @me: 2025: diabetes, a new shoulder, a house with Mei, and now we're engaged."),
    # an end verb that is an adjective, a state someone is left in, less of something
    ("W @me: I get hay fever badly from May and take cetirizine every day.",
     "B @me: Hurt my left knee badly playing five-a-side on Sunday."),
    ("O(c=0.7) @me: The Cautionary Tales podcast is my favourite thing to listen to on deadheads.",
     "B @me: Listened to the Flightcast interview with a retired 747 captain on the way home."),
    ("W @Graciela: Graciela is from Valparaíso in Chile and charges £25 a lesson.",
     "B @Graciela: Graciela's lesson on the subjunctive left me more confused than ever."),
    ("W @Pickles: Pickles eats Hill's k/d wet food because of his kidneys.",
     "B @Pickles: Pickles has stopped eating much; the vet says it's his kidneys."),
    # what was sold, not who bought it; what was dropped, not the heading
    ("W @me: I have 3,400 total flight hours, about 2,100 of them in the E175.",
     "B @me: Sold my E175 flight bag and manuals to a new hire for $80."),
    ("W @me: I still owe about $14,000 on my Nova Scotia student loan.",
     "B @me: Sold the Honda Fit to a student in Bridgewater for $3,200."),
    ("W @me: I shoot menu photos on a Fujifilm X100V.",
     "B @me @Tidewater: Fall menu: scallops with brown butter, duck was dropped for a mushroom "
     "dish."),
    # money for another thing
    ("W @me: I rent a lowset brick house on Webster Road, Stafford, for $640 a week.",
     "B @me: Our offer of $845,000 on a highset house on Duffield Road was knocked back."),
    ("W @me: I rent a one-bedroom apartment on Capitol Hill in Denver, $1,850 a month.",
     "B @me: Found a crash pad in Salt Lake: a bunk in a house near the airport for $350 a "
     "month."),
    ("W @me: My salary is £44,200 on the main teachers' pay scale.",
     "W @me: Our mortgage payment is £1,312 a month."),
    ("W @me: Our mortgage payment is £1,312 a month.",
     "W @me: My salary as head of department is £51,900."),
    # a person is not one slot; a slot noun of another thing; where a pet came from
    ("W @Grace: My mom, Grace, is a retired teacher living in Tulsa with my stepdad Leon.",
     "B @Grace: Mom is having her right knee replaced at Saint Francis Hospital in Tulsa."),
    ("W @me: My mobile provider is Fizz.",
     "B @me @Saltwork: Our fish supplier switched to Fisherman's Market in Bedford."),
    ("W @me: My internet provider is Eastlink, 300 Mbps.",
     "B @me @Tidewater: Changed the fryer oil supplier to a local canola mill in Berwick."),
    ("O(c=0.8) @me: Rye with caraway is the best bread I've baked so far.",
     "B @me @Sofia: Adopted Juniper, a cattle dog mix, from Best Friends in Salt Lake."),
    # an opinion is not a product in use, nor changed by a word it shares
    ("O(c=0.7) @me: The Bear is the only kitchen show that gets the stress right.",
     "B @me @Donna: Mom is taking a watercolour class at the Cape Breton Centre for Craft."),
    ("O(c=0.8) @me: Black drip coffee from the crew room is all I need on an early show.",
     "B @me: Quit the energy drinks; switching to green tea on early shows."),
    # the outcome of something else
    ("W @Project-Compass: The Compass beta launch slipped from May to July.",
     "B @Project-Compass: Finished the Compass accessibility audit with an RNIB consultant."),
    ("S @me: Called Mom and Naomi about the Meridian offer; Mom cried.",
     "B @me: Cancelled Fender Play; I haven't picked up the guitar in a month."),
]


@pytest.mark.parametrize(("old", "new"), KEPT)
def test_a_true_fact_is_not_retired(old: str, new: str) -> None:
    assert not superseded(old, new), verdicts(old, new)


CHANGES = [
    ("W @me: I earn £61,500 a year at Halden Rail.",
     "B @me: Accepted the Yorvik offer and handed in my notice at Halden Rail."),
    ("W @Car: We drive a 2016 Skoda Octavia estate.",
     "B @Car: Sold the Octavia to a dealer in Harrogate for £6,200."),
    ("W @me: I drive a 2012 Honda Fit, grey, with a cracked windshield.",
     "B @me: Sold the Honda Fit to a student in Bridgewater for $3,200."),
    ("W @me: My salary at Yorvik is £72,000.", "W @me: My salary goes up to £84,000."),
    ("W @Sparks-North: My call-out fee is $95, then $110 an hour.",
     "W @Sparks-North: My call-out fee is now $120, and $125 an hour."),
    ("W @me: I rent a basement suite in Dartmouth for $1,450 a month, utilities included.",
     "W @me: I rent the top floor of a yellow house in Lunenburg now, $1,300 a month."),
    ("W @me: I drink a Celsius energy drink on almost every early report.",
     "B @me: Quit the energy drinks; switching to green tea on early shows."),
    ("W @me: My phone is a Samsung Galaxy S21.", "W @me: My phone is an iPhone 16 now."),
    ("W @Azilis: Azilis is expecting her first child.",
     "W @Azilis: Azilis gave birth to a baby boy, Théo."),
    ("W @Juniper-Row: Juniper Row Bakery's website runs on Squarespace.",
     "B @Juniper-Row: Juniper Row moved its website and online shop to Shopify."),
    ("W @Jarrah: Jarrah drives on his P1 provisional licence.",
     "W @Jarrah: Jarrah passed the HPT and is on his P2s now."),
    ("W @Book-Club: My book club meets at Priyanka's flat.",
     "W @Book-Club: From June, the book club meets at the Loaf café instead of Priyanka's flat."),
]


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_the_real_change_beside_it_is_still_made(old: str, new: str) -> None:
    assert superseded(old, new), verdicts(old, new)
