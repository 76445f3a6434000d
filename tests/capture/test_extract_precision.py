"""Extraction rules that keep bullets to what a turn states about its speaker: a subject left
out of a chat sentence, a name the sentence is addressed to, a question tacked on after a
dash, a resolve and a reaction."""

from __future__ import annotations

from datetime import date

from memfold.capture.extract import extract

DAY = date(2025, 5, 2)


def _said(text: str, speaker: str = "Ana") -> list[str]:
    return [f.content for f in extract(text, speaker=speaker, day=DAY)]


def _kinds(text: str) -> list[tuple[str, str]]:
    return [(f.kind, f.content) for f in extract(text, speaker="Ana", day=DAY)]


def test_a_sentence_without_its_subject_is_the_speakers() -> None:
    """Chat drops the "I": "Just got back from…", "Been busy…", "Started…" are the
    speaker's own news."""
    assert _kinds("Just got back from a week of sailing along the coast yesterday.") == [
        ("B", "Just got back from a week of sailing along the coast yesterday (2025-05-01).")]
    assert _said("Been busy repainting the old barn behind the house.") == [
        "Been busy repainting the old barn behind the house."]
    assert _said("Hi Tom! Started teaching a pottery class at the library on Mondays.") == [
        "Started teaching a pottery class at the library on Mondays."]


def test_a_dropped_subject_reaction_is_not_news() -> None:
    """A participle that says how something seemed or felt is not something done."""
    assert _said("Looked like such a lovely afternoon by the lake.") == []
    assert _said("Excited to see where the garden goes next spring.") == []
    assert _said("Indeed it was a lovely evening at the lake house.") == []
    assert _said("Feed the ducks at the pond every morning, please.") == []
    assert _kinds("Need to finish my thesis before the summer.") == [
        ("W", "Need to finish their thesis before the summer.")]


def test_the_name_a_sentence_is_addressed_to_is_not_its_subject() -> None:
    """"Tom, my bakery…" is about the speaker's bakery; "Tom, let's…" is an invitation."""
    assert _said("Tom, my bakery has been busy since the new oven came in March.") == [
        "Their bakery has been busy since the new oven came (March 2025)."]
    assert _said("Well, Tom, let's keep planting trees along the river together.") == []
    assert _said("Sadly, my bakery closed for good in March.") == [
        "Sadly, their bakery closed for good (March 2025)."]
    assert _said("Sunday, I baked bread for the whole street.") == [
        "Sunday, they baked bread for the whole street."]
    assert _said("Sometimes, I bake bread for the whole street every Friday.") == [
        "Sometimes, they bake bread for the whole street every Friday."]


def test_a_question_after_a_dash_leaves_the_statement_before_it() -> None:
    assert _said("By the way, I finished the quilt for my niece - wanna see it?") == [
        "Finished the quilt for their niece."]
    assert _said("Did you finish the quilt for your niece?") == []


def test_a_resolve_is_not_a_fact() -> None:
    """"I won't give up", "I'm gonna keep pushing": encouragement, not news about the
    speaker; the fact beside it is still taken."""
    assert _said("I won't give up on the bakery, no matter what.") == []
    assert _said("I'm gonna keep pushing until the shop turns a profit.") == []
    assert _said("I'm gonna make it! I opened a second shop in Porto last week.") == [
        "Opened a second shop in Porto last week (2025-04-25)."]


def test_a_reaction_with_the_speaker_only_as_its_object_is_not_a_fact() -> None:
    """"It really moved me" says how something struck the speaker, not what they did; with
    the speaker as subject or owner it is kept."""
    assert _said("I walked past our first flat in Porto last week. It reminded me how much "
                 "the old neighbourhood has changed.") == [
        "Walked past our first flat in Porto last week (2025-04-25)."]
    assert _said("That trip in 2019 made me appreciate the quiet evenings at home.") == []
    assert _said("It reminded me that my grandmother grew up in Porto.") != []
    assert _said("The pottery class gives me a calm hour every Monday evening.") != []


def test_they_at_the_start_of_a_sentence_stays_they() -> None:
    """"They're my biggest fans" is about them, not "Is their biggest fans"."""
    assert _said("They're my biggest fans and came to every show in March.") == [
        "They're their biggest fans and came to every show (March 2025)."]


def test_hopefully_is_a_hedge_and_lets_anywhere_an_invitation() -> None:
    assert _said("Hopefully, I'll have the new roof on before the rains in June.") == []
    assert _said("Until then, let's keep my garden club going every Sunday.") == []
    assert _said("I repaired the garden shed with my neighbour last Sunday.") != []


def test_a_fact_after_a_dash_in_small_talk_is_kept() -> None:
    """Small talk or a word to the listener before a dash does not hide the news after it."""
    assert _said("Thanks for asking - we adopted a second cat named Pip last week.") == [
        "We adopted a second cat named Pip last week (2025-04-25)."]
    assert _said("You'll laugh at this one- I signed up for a salsa class on Fridays.") == [
        "Signed up for a salsa class on Fridays."]
    assert _said("Thanks for asking - all good here, nothing new.") == []


def test_a_promise_of_effort_is_not_a_fact() -> None:
    """"I'll do my best…" promises effort; it says nothing the speaker did or is."""
    assert _said("I'll do my best to get the community garden ready for the fair in June.") == []
    assert _said("Sure thing, Sam! I'll try my very best to finish the mural by Friday.") == []
    assert _said("I did my best at the regional chess final in March.") == [
        "Did their best at the regional chess final (March 2025)."]


def test_a_musing_about_anyone_is_not_a_fact() -> None:
    """"It's amazing how…", "It's nice to know…", "Looking after ourselves is key": said of
    people in general, or of how it feels to hear something; the speaker's own news in the
    same frame is kept."""
    assert _said("It's amazing how a short walk can change our whole outlook.") == []
    assert _said("It's really great to see how our street pulls together in winter.") == []
    assert _said("It's nice to know that what I'm doing at the shelter is helping.") == []
    assert _said("Looking after ourselves and our families is so important.") == []
    assert _said("It's amazing how my tomato plants have grown since I moved them.") != []
    assert _said("Cooking for my family on Sundays is important to me.") != []


def test_imagining_what_the_listener_went_through_is_not_a_fact() -> None:
    """What the speaker pictures of the listener's news tells nothing about either."""
    assert _said("I can only imagine how hard that move to Denver was last year.") == []
    assert _said("I can imagine the view from the top of Mount Hood at sunrise.") == []


def test_an_image_caption_stays_in_the_turn() -> None:
    """A caption appended to what was said ("[image: …]") is what was shown: the bullet
    keeps the words said."""
    assert _said("I finished the quilt for my niece last week! [image: a photo of a quilt "
                 "on a bed]") == ["Finished the quilt for their niece last week (2025-04-25)."]


def test_so_far_and_so_much_keep_their_so() -> None:
    """"So" opening a sentence is an interjection ("So, I moved…") unless it begins "So far",
    "So much": a bullet is never the fragment "Far, so good…" or "Much has happened…"."""
    assert _said("So I moved to Lisbon in March.") == ["Moved to Lisbon (March 2025)."]
    assert _said("So much has happened since we last spoke - I adopted a cat yesterday!") == [
        "So much has happened since we last spoke - they adopted a cat yesterday (2025-05-01)."]


def test_you_know_opening_a_sentence_is_an_interjection() -> None:
    assert _kinds("You know I love hiking in the Alps every summer.") == [
        ("O", "Loves hiking in the Alps every summer.")]
    assert _said("You know, I moved to Porto in March.") == ["Moved to Porto (March 2025)."]


NEWS = "I adopted a grey cat from the shelter last week."
ADOPTED = "Adopted a grey cat from the shelter last week (2025-04-25)."


def test_a_conviction_is_not_a_fact() -> None:
    """"I'm sure…", "I believe…": what the speaker is convinced of is a judgement, not what
    they did or are; the fact beside it is still taken."""
    assert _said(f"I'm sure the new roof made a big difference to the whole street. {NEWS}") \
        == [ADOPTED]
    assert _said(f"I believe that a good library can change a small town. {NEWS}") == [ADOPTED]
    assert _said(f"I'm pretty sure with enough practice I can run the marathon. {NEWS}") \
        == [ADOPTED]
    assert _said(f"I really believe in the garden project and its volunteers. {NEWS}") \
        == [ADOPTED]
    assert _said("I surely learned a lot from the pottery course in March.") == [
        "Surely learned a lot from the pottery course (March 2025)."]


def test_a_statement_about_a_kind_of_thing_is_not_a_fact_about_the_speaker() -> None:
    """"Pets are the best for lifting our spirits", "Life is better when we share it": a
    bare plural or a word for life in general as subject, said of everyone; "our" in it
    does not make it the speaker's news.  The speaker's own ("Our dogs are…", "My kids
    are…") is kept."""
    assert _said(f"Pets are the best for lifting our spirits after a long day. {NEWS}") \
        == [ADOPTED]
    assert _said(f"Life is so much sweeter when we slow down together. {NEWS}") == [ADOPTED]
    assert _said(f"Gardens really have a way of calming our minds. {NEWS}") == [ADOPTED]
    assert _said(f"Our dogs are staying with my sister in Porto this month. {NEWS}") == [
        "Our dogs are staying with their sister in Porto this month.", ADOPTED]
    assert _said(f"This is our new flat above the bakery in Porto. {NEWS}") == [
        "This is our new flat above the bakery in Porto.", ADOPTED]
    assert _said(f"Kids grow up so fast, my daughter starts school in September. {NEWS}") \
        == ["Kids grow up so fast, their daughter starts school (September 2025).", ADOPTED]


def test_a_reflection_on_moments_like_these_is_not_a_fact() -> None:
    """"Moments like these remind me…", "Little things like this can…", "one of those
    days": what something shown or told brings to mind, not news; one that also tells
    something (a time, a name, an event) is kept."""
    assert _said(f"Quiet moments like these remind me how much patience matters. {NEWS}") \
        == [ADOPTED]
    assert _said(f"Little things like this can change how a whole day goes. {NEWS}") \
        == [ADOPTED]
    assert _said(f"It's one of those moments where my whole family just clicks. {NEWS}") \
        == [ADOPTED]
    assert _said("Moments like these remind me of the summer I spent in Porto in 2019.") == [
        "Moments like these remind them of the summer they spent in Porto in 2019."]


def test_a_mood_with_nothing_it_is_about_is_not_a_fact() -> None:
    """"I was so excited", "I'm stoked about this", "The colours make me feel calm": how a
    moment felt, with nothing it is about but a pronoun; a mood about something named is
    kept."""
    assert _said(f"I was so excited and a bit nervous. {NEWS}") == [ADOPTED]
    assert _said(f"Honestly, I'm stoked about this! {NEWS}") == [ADOPTED]
    assert _said(f"The colours make me feel calm. {NEWS}") == [ADOPTED]
    assert _said(f"I'm so excited about the new pottery studio in Braga. {NEWS}") == [
        "Is so excited about the new pottery studio in Braga.", ADOPTED]


def test_a_picture_pointed_at_by_a_pronoun_is_not_a_fact() -> None:
    """"Here's one I painted last week": the picture is what is shown; a sentence that names
    what it shows is kept."""
    assert _said(f"Here's one I painted last week. {NEWS}") == [ADOPTED]
    assert _said(f"And here's something I knitted for the fair. {NEWS}") == [ADOPTED]
    assert _said(f"Here's one of my watercolours from the fair in June. {NEWS}") == [
        "Here's one of their watercolours from the fair (June 2025).", ADOPTED]


def test_thanks_in_other_words_and_an_invitation_to_look_are_small_talk() -> None:
    assert _said(f"I'm so grateful for all the support from the neighbours. {NEWS}") \
        == [ADOPTED]
    assert _said(f"Check this photo I took at the harbour on Sunday. {NEWS}") == [ADOPTED]
    assert _said(f"I'm grateful for my new job at the city library. {NEWS}") == [
        "Is grateful for their new job at the city library.", ADOPTED]


def test_what_follows_a_condition_or_points_back_after_a_dash_is_not_taken() -> None:
    """After a dash, a clause that a condition governs ("If the weather holds - I'm
    planting…") or that points back at the clause before ("You finished it - that's huge
    for our club") is no fact of its own."""
    assert _said("If the weather holds - I'm planting tomatoes along the fence.") == []
    assert _said("You finally ran the whole marathon - that's huge for our running club.") \
        == []
    assert _said("Thanks for asking - we adopted a second cat named Pip last week.") != []


def test_an_ongoing_activity_a_habit_or_a_name_tells_something() -> None:
    """A short turn's one statement is kept when it says what the speaker is doing now
    (the "I'm" of "Still restoring…" dropped as chat does), does often, or a name."""
    assert _said("I'm still volunteering at the animal shelter.") == [
        "Is still volunteering at the animal shelter."]
    assert _said("Still restoring the old boat in the garage.") == [
        "Still restoring the old boat in the garage."]
    assert _said("We go swimming at the lake with the kids quite often.") == [
        "We go swimming at the lake with the kids quite often."]
    assert _said("Our puppy is so cute, her name is Nala!") == [
        "Our puppy is so cute, her name is Nala."]
    assert _said("I'm trying to stay positive about all of it.") == []
    assert _said("I'm doing great, thanks for asking!") == []


def test_a_hardship_taken_in_stride_tells_nothing() -> None:
    """"It's tough, but I'm determined": a hardship that names nothing, then how the speaker
    takes it; one that names what is hard, or an attitude that tells something, is kept."""
    assert _said(f"It's tough, but I'm determined. {NEWS}") == [ADOPTED]
    assert _said(f"It's been a wild ride but I'm loving it. {NEWS}") == [ADOPTED]
    assert _said(f"It wasn't easy, but I'm doing ok. {NEWS}") == [ADOPTED]
    assert _said(f"It's tough as a single dad, but I'm up for the challenge. {NEWS}") == [
        "It's tough as a single dad, but they're up for the challenge.", ADOPTED]
    assert _said(f"It was hard, but I finished the thesis in March. {NEWS}") == [
        "It was hard, but they finished the thesis (March 2025).", ADOPTED]


def test_everyone_each_other_and_hard_work_are_no_time_or_job() -> None:
    """A short turn's one statement tells something only when it says a time, a habit or a
    job: "every week" and "I work at" do, "everyone", "each other" and "hard work" do not,
    and "we need" is no past event."""
    assert _said("We make sure everyone feels welcome at the club.") == []
    assert _said("We're always there for each other, no matter what.") == []
    assert _said("With some hard work, we can make the garden great.") == []
    assert _said("Honestly, we work really well together, the two of us.") == []
    assert _said("We need more people like that in the choir.") == []
    assert _said("We meet at the club every week to play chess.") == [
        "We meet at the club every week to play chess."]
    assert _said("I work at the harbour office near the ferry.") == [
        "Works at the harbour office near the ferry."]


def test_the_third_person_keeps_its_grammar() -> None:
    """"when I was young" -> "when they were young"; "I'd been…" is "had been"."""
    assert _said("Started painting when I was young and it has been great since.") == [
        "Started painting when they were young and it has been great since."]
    assert _said("I'd been wanting to try rowing for years and finally joined a club "
                 "last month.") == [
        "Had been wanting to try rowing for years and finally joined a club last month "
        "(April 2025)."]
    assert _said("I'd love to visit Porto with my sister next spring.") == [
        "Would love to visit Porto with their sister next spring."]


def test_i_am_inside_a_sentence_is_no_name() -> None:
    """A capitalised word inside a sentence may be a name, and a name tells something; the
    "I'm" of "…, but honestly I'm fine now" is none."""
    assert _said("The week was rough, but honestly I'm fine now.") == []
    assert _said("The week was rough, but Nadia and I are fine now.") == [
        "The week was rough, but Nadia and they are fine now."]
