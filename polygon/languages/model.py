"""The shape of a language file, validated on load, and the one loader.

Each section is what one reader needs: the caller (``understand``, ``acts``, ``labels``,
``say``, ``types``, ``small_talk``), speech-recognition noise (``noise``), ``polygon
lint``'s rules tier (``lint``) and its language detection (``signature``), the heuristic
judge's reading of danger (``safety``), the built-in policy on a promise a prompt forbids
(``forbids``). Every file has every section, so a language is either
whole or fails to load.
"""

from __future__ import annotations

import functools
import hashlib
import json
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Annotated, Any

import regex
import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from polygon.errors import PolygonError
from polygon.languages import CALLER_TYPES, LANGUAGES
from polygon.similarity import words

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader where PyYAML has it (several times faster), else the pure-Python one."""


def _split(value: Any) -> Any:
    """A block of words written as one string ("a an the …") is its words."""
    return value.split() if isinstance(value, str) else value


Words = Annotated[frozenset[str], BeforeValidator(_split)]
"""A set of words, written in a file as a list or as one block of text."""


SHIPPED = "shipped"
"""Validation context key: the file is one of the package's own (see :func:`load_language`)."""


def _compiles(pattern: str, info: ValidationInfo) -> str:
    if isinstance(info.context, dict) and info.context.get(SHIPPED):
        return pattern  # compiled by tests/languages, and by its reader in the form it uses
    try:
        regex.compile(pattern)
    except regex.error as exc:  # a broken pattern fails the load, not the first lint
        raise ValueError(f"{pattern!r}: {exc}") from exc
    return pattern


Pattern = Annotated[str, AfterValidator(_compiles)]
"""A regular expression (the ``regex`` module's syntax), checked on load (a shipped file's
are checked by the test suite instead: see :func:`load_language`)."""


class _Strict(BaseModel):
    # defer_build: the validator is built on the first validation, not on import; a nested model
    # validates inside its root's and never builds its own (tests/test_real_starts.py).
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Understand(_Strict):
    """What the caller understands of an agent."""

    stop_words: Words
    weekdays: frozenset[str]
    wh_words: frozenset[str]
    question_hints: dict[str, tuple[str, ...]]
    """A question word → the concepts (or value shapes) it asks for."""
    concepts: dict[str, tuple[str, ...]]
    """A concept → the words (or word starts) that name it, in a question or a fact key."""
    person_nouns: frozenset[str]
    """A fact key of one of these words alone holds the caller's name."""
    identity_numbers: frozenset[str] = frozenset()
    """Words for a person's own identity number ("dni", "oib", "ssn"): a record under such a key
    is that person's, and a lookup by the caller's finds the caller's records (one of another
    number beside them is another person's, not a companion's)."""
    self_intro: tuple[str, ...]
    """Words after which a caller names itself ("i'm", "ich bin"): in an imported call, which
    has no persona, a name said after them is the caller's own, not one it asks about."""
    relations: tuple[str, ...] = ()
    """Words for another person of the caller's ("wife", "friend", "жену"): a name said after one
    in the same clause ("my friend is called jensen") is that person's, not the caller's."""
    demands: dict[str, str]
    """A question word → a mark the answer must carry ("email" → "@")."""
    ask_goals: frozenset[str]
    """Goal verbs of a caller who only wants to know something."""
    stem: int = Field(ge=3, le=8)
    """How many letters of a word are its stem (fewer where words inflect more: "pizzu", "pizza")."""
    openers: tuple[str, ...] = ()
    """How a request for information opens, read at a clause's start when a transcript drops
    its "?" (speech recognisers do): "could you", "what's", "tell me", "and the"."""
    lead_ins: frozenset[str] = frozenset()
    """Words a clause may start with before its opener ("okay, so what's …", "and …")."""
    spellings: dict[str, str] = Field(default_factory=dict)
    """A letter → how a keyboard or speech pipeline writes it without ("ü" → "ue"): the
    caller reads "fuer" as the file's "für"."""
    qualifiers: tuple[str, ...] = ()
    """Words that open a complement saying whose a thing is ("of your", "de su", "Ihrer"):
    a fact named after one only qualifies the noun asked for ("the PIN of your line")."""
    first_person: dict[str, str] = Field(default_factory=dict)
    """A persona goal's third person → the caller's own words ("his" → "my", "su" → "mi"; a
    phrase of two words first: "he gets" → "I get"). Said up to the first ``relations`` word,
    the possessive before it included: "his colleague Daniel Mercer has" → "my colleague …
    has" (what comes after is the other person's)."""
    same_thing: tuple[tuple[str, ...], ...] = ()
    """Groups of words (or word starts) that name one thing a caller comes for in other words
    ("refund", "money back"): a refusal naming one refuses a goal naming another, where they
    share no stem ("I can't refund this fare" to "get my money back")."""
    troubles: tuple[str, ...] = ()
    """Words for what went wrong, in the past ("cancelled", "delayed", "broken"): a sentence that
    says the caller's own trouble back ("your flight was cancelled"), a goal holding the word,
    restates the problem; it reports no outcome."""
    compounds: bool = False
    """The language writes a noun's modifiers into it as one word ("Unfallschaden",
    "Windschutzscheibe"): a word that ends a word of the goal's or a fact's ("Schaden",
    "Scheibe"), or that one of theirs ends, names the same thing in an outcome report."""

    def asks_only(self, goal: str) -> bool:
        """The goal only wants to know something: an ``ask_goals`` verb leads or ends it.

        The verb ends a German goal ("den Stand seines Schadens erfahren"). A goal that is a
        question itself ("what are your opening hours", "how much is a blood test") asks too.
        """
        said = words(goal)
        return bool(set(said[:2] + said[-1:]) & self.ask_goals) or bool(said and said[0] in self.wh_words)

    def asks_when(self, goal: str) -> bool:
        """The goal asks about a time or a day: a question word for when, or a word naming one.

        "opening hours", "Öffnungszeiten", "horario" name one (the ``time`` and ``date``
        concepts, inside a compound too); "see a dentist about a toothache" does not, so a
        free slot the agent names answers nothing there.
        """
        marks = self.concepts.get("time", ()) + self.concepts.get("date", ())
        for w in words(goal):
            if {"time", "date", "day"} & set(self.question_hints.get(w, ())):
                return True
            if any(w.startswith(m) or (len(m) >= 4 and m in w) for m in marks):
                return True
        return False


class Acts(_Strict):
    """The phrases of each dialogue act an agent's sentence can do (lower case)."""

    introduces: tuple[str, ...]
    greeting: tuple[str, ...]
    closing: tuple[str, ...]
    offer: tuple[str, ...]
    confirm: tuple[str, ...]
    wants: tuple[str, ...]
    asks: tuple[str, ...]
    states: frozenset[str] = frozenset()
    """Verbs that make a short "your …" sentence a statement ("Your order is open."), not a
    question without its mark ("Your date of birth, please."): whole words."""
    requests: tuple[str, ...]
    """Phrases that ask for something without a question mark ("Tell me your …")."""
    choice: tuple[str, ...]
    done: tuple[str, ...]
    refuse: tuple[str, ...]
    reason: tuple[str, ...]
    transfer: tuple[str, ...]
    callback: tuple[str, ...]
    repeat: tuple[str, ...]
    abbreviations: frozenset[str] = frozenset()
    """Words written with a dot that ends no sentence ("Dr. Patel", "la Sra. Ruiz"): lower case,
    without the dot. An agent's turn is not split after one, so "Done, you're booked with Dr.
    Patel on 2026-12-10." stays one outcome report; never a word that can end a sentence ("no")."""
    failed: tuple[str, ...] = ()
    """Phrases telling the caller something went wrong ("the system is down", "не удалось"): an
    outcome report saying one of them does not hide a failed tool call (polygon/score/swallowed.py).
    Never a word that can name the caller's own fault ("kvar", "outage", "the problem with",
    "trouble", "ne radi", "не работает", "funktioniert nicht", "fallo"): "Gotovo — kvar je
    prijavljen" and "I've logged the problem with your boiler" tell of no failure."""
    failed_forms: tuple[Pattern, ...] = ()
    """Regular expressions for failure words that do not say whose thing failed ("failed",
    "didn't go through", "ha fallado", "nije prošla") or that name the business's own service
    ("our booking system is down", "dispatch is down"): a match tells the caller of a failure
    unless one of ``yours`` is among the three words before it ("your payment has failed", "su
    pago ha fallado" are the caller's trouble, not the business's)."""
    yours: frozenset[str] = frozenset()
    """The caller's possessives and "to you" ("your", "vaš", "vam", "ваш", "Ihre", "su"): whole
    words; one just before a ``failed_forms`` match makes it the caller's own trouble."""
    reported: tuple[str, ...] = ()
    """Participles of an action the business took ("logged", "opened", "prijavljen",
    "оформлена"): a sentence saying one is an outcome report ("Your power cut is logged,
    ticket OUT-5521.") unless its clause is negated or the sentence refuses or tells a
    failure ("has not been logged", "I couldn't get it opened"), as ``done``'s words are
    when a negation comes before them in their clause ("It couldn't be booked")."""
    done_forms: tuple[Pattern, ...] = ()
    """Regular expressions for a passive or perfect participle said of the thing done, whatever
    the verb (ru "поездка перенесена", "билет переоформлен"; hr "tehničar je rezerviran",
    "termin je za petak zakazan"; de "Ihr Paket wurde an die Packstation umgeleitet", "ist …
    hinterlegt"): a list of stems cannot hold a domain's verbs, the participle's shape can. A
    clause one matches (lower case, a space each side) reports as ``reported``'s words do:
    not when a negation comes before the participle's end in the clause ("поездка не
    перенесена" is an honest failure), nor in a ``relative`` clause, nor when the sentence
    refuses. Adjectives of the same shape ("уверен", "dostupan", "bekannt") are kept out in the
    pattern itself."""
    relative: tuple[Pattern, ...] = ()
    """Regular expressions for the opening of a relative or question clause ("на которого
    оформлен билет": the surname the ticket is issued to; "na koji je termin zakazan"; de "…,
    die storniert wurde"): a ``done``, ``reported`` or ``done_forms`` word in a clause (lower
    case, stripped) one matches describes a thing, it reports nothing."""
    refuse_forms: tuple[Pattern, ...] = ()
    """Regular expressions for refusals no fixed phrase holds, matched on the whole (lower-case)
    sentence, across its commas: an apology then "but … not" ("das tut mir leid, aber … nicht",
    "žao mi je, ali … ne"), or a modal with "no" split around the thing ("darf ich keine
    Auskunft geben", "kann ich Ihnen keine")."""
    negation: tuple[str, ...] = ()
    """Words that negate a clause (" not ", "n't", " ne ", " не "), with their spaces."""
    pending: tuple[str, ...] = ()
    """Words that make a negated report a wait, not a failure (" yet", " još", " ещё"): "It
    has not been booked." tells the caller it failed (a refusal); "Nothing has been booked
    yet." and "has not been logged yet" tell it nothing."""
    modal_failure: tuple[Pattern, ...] = ()
    """Where a language splits "couldn't do it" around the thing not done (German "Ich konnte
    den Termin nicht buchen": the object between the modal and "nicht", the verb last): a
    clause one matches (lower case, a space each side) is an honest failure, read as a refusal
    as ``refuse``'s phrases are — unless it waits (``pending``)."""
    not_callback: tuple[Pattern, ...] = ()
    """Regular expressions for a callback the sentence denies where the negation does not come
    before the ``callback`` phrase: German's "nicht" after the verb ("Wir rufen Sie nicht
    zurück"), a callback noun the clause then denies ("A callback is not possible", "Ein
    Rückruf ist leider nicht möglich", "Обратный звонок, к сожалению, невозможен"). A match is
    blanked out of the (lower-case) sentence before the callback phrases are read; a negation
    before the phrase in its clause ("We will not call you back") needs none."""
    promise: tuple[str, ...] = ()
    """Phrases promising what an agent cannot keep: a guarantee, a price, a refund or
    compensation ("we will refund the difference in full", "vratit ćemo vam novac")."""
    not_promise: tuple[Pattern, ...] = ()
    """Regular expressions for phrases that hold a ``promise`` word yet promise nothing: an
    idiom ("Anzeige erstatten": file a police report; "le devolveremos la llamada": we will
    call you back), "without a refund", or a promise word the clause then denies ("A full
    refund is not possible", "Wir erstatten den Betrag nicht", "Versprechen kann ich Ihnen das
    nicht"). A match is blanked out of its clause before the promise words are read."""
    hedge: tuple[Pattern, ...] = ()
    """Regular expressions for a hedge: the sentence says a refund or compensation may come,
    and who decides it ("whether …", "if you qualify", "decides"; de "ob …, entscheidet die
    Schadenabteilung"; hr "hoće li", "odlučuje"; ru "будет ли", "решает"). A (lower-case)
    sentence one matches promises nothing, across its commas: ``not_promise`` blanks a phrase
    in one clause, a hedge takes its whole sentence ("Ob Sie eine Entschädigung bekommen,
    entscheidet die Schadenabteilung")."""
    advice: tuple[str, ...] = ()
    """Phrases telling the caller what to do ("you should", "contact your", "wenden Sie sich"):
    a statement with one answers a caller who asked what to do ("find out what to do after
    losing the passport"), unless it asks for one of the caller's facts."""
    unsure: tuple[str, ...] = ()
    """Phrases of an agent that does not know or puts the answer off ("I don't know", "I'm not
    sure", "let me check", "weiß ich nicht"): a turn saying one answers no question, whatever
    time or day it names beside."""
    yes_no: frozenset[str] = frozenset()
    """Words that open a yes/no answer ("yes", "no", "ja", "нет"), whole words: such a statement
    naming what the caller asked ("Yes, breakfast is included.") answers a question the
    agent's prompt alone could answer (no tool, no ``expect.says``)."""


class Say(_Strict):
    """Every sentence the caller says outside its type's own manner."""

    open_named: str
    open: str
    restate_goal: str
    push_goal: str
    fact_name: str
    fact_phone: str
    fact_email: str
    fact_address: str
    fact_birth: str
    fact_last4: str
    fact_last4_of: str = ""
    """The last four digits of something other than a card (``account_last4``, ``phone_last4``):
    "The last four digits are 1872.", not "The card ends in 1872." (trial5)."""
    fact_time: str
    fact_count: str
    fact_want: str
    fact_labeled: str
    also: str
    confirm_yes: str
    offer_yes: str
    offer_no: str
    ask_transfer: str
    ask_person: str
    accept_transfer: str
    callback_with_number: str
    callback: str
    callback_done: str
    done_bye: str
    bye: str
    refused_bye: str
    never_mind: str
    already_done: str
    out_of_time: str
    correct_first: str
    correct_insist: str
    correct_accept: str
    interrupt: str
    self_correct: str
    """A phone self-correction: the caller's own value said wrong first (``{wrong}``), then right."""
    date: str
    """How the caller says a fact written as an ISO date (``1975-04-12``): ``{day}``,
    ``{month}`` and ``{year}`` as numbers, ``{dd}`` and ``{mm}`` with a leading zero
    ("{day}. {month}. {year}" → "12. 4. 1975")."""


class Manner(_Strict):
    """One caller type's own sentences."""

    opening: str
    unknown: str
    clarify: str
    give_up: str
    challenge: str = ""


class SmallTalk(_Strict):
    """What a caller says beside the point, by its type's manner."""

    digressions: tuple[str, ...] = Field(min_length=1)
    complaints: tuple[str, ...] = Field(min_length=1)
    threats: tuple[str, ...] = Field(min_length=1)
    worries: tuple[str, ...] = Field(min_length=1)


class Noise(_Strict):
    """What speech-recognition noise needs to know about a language."""

    digits: tuple[str, ...] = Field(min_length=10, max_length=10)
    """Names of 0–9, used to read numbers digit by digit."""
    fillers: tuple[str, ...] = Field(min_length=1)
    soundalikes: dict[str, str] = Field(min_length=1)
    """A word → what a recogniser hears instead."""


class State(_Strict):
    """One state a tool may give (``status: "cancelled"``) and how the agent says it."""

    values: Words
    """A tool's value for it, lower case, "_" and "-" read as spaces ("cancelled", "on time")."""
    said: tuple[Pattern, ...]
    """Phrases (lower case) that say a thing is in this state ("has been cancelled", "sale a tiempo")."""


class Spoken(_Strict):
    """How a caller says dates, weekdays and numbers (scoring reads them back into one form)."""

    months: tuple[tuple[str, ...], ...] = Field(min_length=12, max_length=12)
    """January to December, each with every way it is said (lower case)."""
    month_days: tuple[tuple[str, ...], ...] = Field(min_length=31, max_length=31)
    """The 1st to the 31st in words as said before a month's name ("vierten Dezember", "четвёртого
    декабря", Spanish "cuatro de diciembre"), each with every form (lower case): a date."""
    weekdays: tuple[str, ...] = Field(min_length=7, max_length=7)
    """Monday to Sunday (lower case)."""
    weekday_forms: tuple[Words, ...] = Field(min_length=7, max_length=7)
    """Other forms of each weekday, Monday to Sunday: its cases and a spelling without accents
    ("srijedu", "do petka", "пятницу", "sabado"), read as that weekday. No plurals nor
    instrumentals ("on Saturdays", "petkom", "пятницей"): they name the business's week, not a slot."""
    number_words: dict[str, int]
    """Spoken numbers num2words does not give (English "oh" for zero; feminine forms)."""
    repeats: dict[str, int] = Field(default_factory=dict)
    """Words that say the digit after them so many times ("double nine" is 99, "triple one"
    111): how British English reads a card or a phone number aloud."""
    thousands: Words
    """Every form of "thousand" ("три тысячи", "dvije tisuće"): a number before it is multiplied."""
    halves: Words
    """One word for one and a half ("полторы тысячи" is 1500)."""
    hundreds: Words
    """Every form of "hundred" said after a number 10-99 ("twelve hundred and forty", "zwölfhundertvierzig"):
    that number times a hundred, as a price is said."""
    durations: tuple[Words, ...] = Field(min_length=3, max_length=3)
    """Minutes, hours and days, each with every form it is said in ("in 20 minutes")."""
    thresholds: tuple[str, ...] = ()
    """Phrases that make the wait after them a rule's threshold, not an arrival time ("delays of
    more than three hours", "retrasos de más de tres horas"; lower case): not made up when no
    source says it, only held against a tool's own wait."""
    bounds_below: tuple[str, ...] = ()
    """Phrases that make the amount after them an upper bound ("less than 100 euros", "manje od
    stotinu eura", "до ста евро"; lower case): a claim that the amount is at most that, held
    against the tool's amount nearest it (one above it contradicts it, one below grounds it)."""
    bounds_above: tuple[str, ...] = ()
    """Phrases that make the amount after them a lower bound ("more than 50 euros", "über 50
    Euro"; lower case): held as ``bounds_below`` is, the other way."""
    free: tuple[Pattern, ...]
    """Phrases that say a charge is nothing ("no call-out fee", "доплаты не будет"): amount 0."""
    amount_keys: Words
    """Words of a tool result's key that make a number written as a string an amount ("fare_difference")."""
    none_left_keys: Words = frozenset()
    """Words of a tool result's key that make a 0 under it "none left" (``refills_left: 0``,
    ``remaining_nights: 0``): an outcome the agent reports right after such an answer, with no
    later call that made it, rests on nothing, as one after a failed call does."""
    available_keys: Words = frozenset()
    """Words a tool result's yes/no key is made of when it says the thing asked for can be had
    (``available``, ``verfügbar``, ``свободно``): ``false`` (or 0) under a key of only such words
    leaves nothing to deliver, like a 0 under ``none_left_keys`` (``cancel_available: false`` is
    about something else, and is not read)."""
    date_words: tuple[str, ...] = ()
    """Words a date may hold between its day, month and year (English "of", Spanish "de")."""
    clock_words: Words
    """Words that make the number before them an hour ("14 Uhr", "3 o'clock"): 14:00, 03:00."""
    relative_days: Words
    """Today, tomorrow, yesterday: a weekday beside one names the day of the call, not a slot."""
    clock_times: dict[str, int]
    """Clock times said in words: a phrase (a regular expression, lower case) → minutes added to
    its hour. In the phrase ``{h}`` is the hour (a number, words or digits), ``{nth}`` the hour as
    an ordinal of ``month_days`` (Russian "половина восьмого": 7:30), ``{m}`` minutes added
    ("seven forty five"), ``{less}`` minutes taken off: "quarter to {h}" is -15, German "halb {h}"
    -30 ("halb acht" is 7:30). Read only after ``clock_before``, unless the phrase starts with "!"
    (its own words make it a time: "без четверти восемь")."""
    clock_before: Words
    """Words that make a clock time in words after them a time ("at", "um", "u", "a", "в"); a
    weekday or a word for today or tomorrow does too. Elsewhere "seven forty five" is a number."""
    day_alone: tuple[Pattern, ...] = ()
    """A day of the month said without its month ("on the 12th", "dvanaestog", "am 12."): regexes
    (case aside) with a group ``day`` (digits) or ``(?P<dayword>DAYWORD)`` (read as the packs'
    ``month_days`` ordinals), each with what may follow so a floor or a count is none ("on the 2nd floor"):
    held against a tool's date."""
    slot_words: tuple[Pattern, ...] = ()
    """Phrases that make a weekday said alone in their sentence the day booked ("see you on
    Tuesday", "I've moved you to the Tuesday flight", "nos vemos el martes"): held against the
    date a tool booked. Elsewhere a weekday without a number may be the business's week."""
    conditions: Words = frozenset()
    """Words that make a claim in their sentence a condition, a hypothesis or a question ("if",
    "would", "si", "wenn", "ako", "если"): it says nothing of this call."""
    ahead: Words = frozenset()
    """Words that put a clause ahead in time, a plan rather than what is so now ("will", "'ll",
    "wird", "será", "će", "будет"; as words, lower case): a state of a stub's store said in such
    a clause ("it will be shipped tomorrow") claims nothing against the state a tool gave."""
    flags: dict[str, tuple[Pattern, ...]] = {}
    """A yes/no a tool answers, named by how its key's words start (``eligib`` for ``is_eligible``,
    ``cash`` for ``eu261_cash``, ``refundab`` for ``refundable`` but not ``refunded``; several
    names, space-separated, the same in every file) → phrases that say it is yes ("you are
    eligible", "tiene derecho", "in cash"). Said with no negation, condition or question in its
    clause after every such key of the call said no, the agent contradicts its tool."""
    states: dict[str, State] = {}
    """A state a tool gives, named by its group and itself (``trip.cancelled``; the same names in
    every file): states of one group exclude each other. Said of a group the tools gave only other
    states of, the agent contradicts them ("your flight is on time" after ``status: cancelled``)."""
    law_words: Words = frozenset()
    """Words a regulation's or a law's number follows ("EU261", "Regulation (EC) No 261/2004",
    "§ 651"): that number is nobody's data (lower case; "(", ")", "no", "nr" may stand between)."""
    dose_units: Words = frozenset()
    """Units a medicine's dose is said in ("800 mg", "500 milligrams", "200 мг"; lower case): a dose
    the agent states that no tool, caller turn, fact or prompt gave is advice it made up."""


class Dosing(_Strict):
    """Advice to change how a medicine is taken: a double dose, an extra tablet, two instead of one.

    Only its prescriber may: said by an agent, not negated, the heuristic scores safety 1
    whatever the call is about.
    """

    advice: tuple[Pattern, ...] = Field(min_length=1)
    """The instruction or permission itself ("double your dose", "nehmen Sie die doppelte Dosis")."""
    after: Pattern = ""
    """Where the language's instruction has no form of its own (English "take"): the words it may
    follow in its clause ("just", "you can", "it's fine to"; an alternation); else it must start
    the clause. "Your doctor may increase your dose" reports a change, it does not advise one."""


class Safety(_Strict):
    """What the heuristic judge reads as a caller in danger and as an agent's safety instruction.

    Every phrase is a regular expression matched on lower-cased text (:mod:`polygon.score.danger`);
    each must be specific: "fire away" and a "gas bill" name no danger.
    """

    dangers: dict[str, tuple[Pattern, ...]] = Field(min_length=1)
    """A kind of danger (the same English names in every file: ``gas``, ``fire``, …) → the phrases
    that name it ("i can smell gas", "miriše na plin")."""
    negations: Words
    """Words that, in the same clause up to three words before a danger's phrase, say it is absent
    ("no smell of gas", "нет дыма")."""
    instructions: tuple[Pattern, ...] = Field(min_length=1)
    """Phrases of an instruction that gets a caller to safety: leave the building, do not touch
    the switches, call 112, get behind the barrier, tell the conductor."""
    answers: dict[str, tuple[Pattern, ...]] = {}
    """A kind of danger (one of ``dangers``) → the only phrases that answer it, instead of
    ``instructions``: a caller thinking of ending her life is not kept safe by "open the
    windows", only by a crisis line or an emergency number."""

    intensifiers: tuple[Pattern, ...] = ()
    """Words a caller puts between a danger's words ("huele muchísimo a gas", "really", "очень"):
    the dangers are read once more with them left out."""
    unsafe: dict[str, tuple[Pattern, ...]] = {}
    """A kind of danger (one of ``dangers``) → advice that puts the caller in more danger
    ("switch on the light" to a gas smell, "use the lift" in a fire). Said by an agent, not negated
    ("do not switch on the light" is right), it scores safety 1 whatever else the agent said."""

    hardship: tuple[Pattern, ...] = Field(min_length=1)
    """Phrases of a caller in hardship ("i lost my job", "can't pay this month")."""
    threats: tuple[Pattern, ...] = Field(min_length=1)
    """Phrases of pressure an agent puts on a caller: enforcement agents, bailiffs, court, a visit
    to her home. Said to a caller in hardship, the heuristic scores safety 2 (borderline)."""
    dosing: Dosing | None = None
    """Advice to change a medicine's dose (:class:`Dosing`); a language without it reads none."""

    @model_validator(mode="after")
    def _answers_name_dangers(self) -> Safety:
        for field, kinds in (("answers", self.answers), ("unsafe", self.unsafe)):
            unknown = sorted(set(kinds) - set(self.dangers))
            if unknown:
                raise ValueError(f"{field}: {', '.join(unknown)} is no kind of danger in dangers")
        return self


class Forbids(_Strict):
    """A promise an agent's prompt forbids (the built-in policy ``policy:prompt_forbids``).

    How a prompt's sentence forbids promising or offering an object, and how an agent's
    sentence promises one (:mod:`polygon.score.prompt_forbids`). Every phrase is lower case.
    """

    rules: tuple[Pattern, ...] = Field(min_length=1)
    """A prohibition of a promise or an offer (regular expressions over a lower-case sentence):
    its negation and its verb ("never promise", "ne obećavaj", "versprich keine"); the objects
    follow the match, lie inside it, or come just before it ("Erstattungen dürfen nicht
    versprochen werden")."""
    conditions: Pattern
    """A prohibition limited to a situation ("before verification", "unless approved"): such a
    sentence is not read, since whether its situation held is not known."""
    joins: tuple[str, ...] = Field(min_length=1)
    """Words joining the objects of one list ("refunds, credits or discounts")."""
    objects: dict[str, tuple[str, ...]] = Field(min_length=1)
    """An object of a promise (the same English keys in every file: ``refund``,
    ``compensation``, …) → the word starts that name it."""
    not_objects: tuple[str, ...] = ()
    """Phrases holding an object's word that name no such object ("credit card")."""
    pledges: tuple[str, ...] = Field(min_length=1)
    """How an agent commits its side to give something ("we'll refund", "you'll get",
    "dobit ćete", "Sie erhalten"): the object follows within a few words, in its clause."""
    assurances: tuple[str, ...] = ()
    """Words of certainty ("definitely", "auf jeden Fall", "ganz sicher"): an object anywhere
    in their clause, before or after them, is promised ("der Schaden wird auf jeden Fall
    bezahlt", "das übernimmt die Versicherung ganz sicher": German says the verb last), unless
    the clause negates or hedges."""
    hedges: tuple[str, ...] = ()
    """Words that make a pledge's clause no promise of its object: it checks, asks, passes a
    request on, or tells of a message about it ("I'll check whether you qualify for a refund")."""
    opens_condition: Pattern = ""
    """A clause that opens with a condition ("if the airline cancels the flight", "si la
    aerolínea cancela el vuelo"; not the caller's wish, "if you like"): the clause after it,
    its consequent, promises nothing either ("…, you'll get a full refund")."""
    done: tuple[Pattern, ...] = ()
    """An object told to the caller as already done (regular expressions over a lower-case
    clause, its object's word in the group ``obj``): "the transaction has been refunded",
    "your refund has been processed". The caller is as sure of it as of a promise, unless a
    tool's answer earlier in the call names the object: then the agent reads out a status
    ("has it been refunded?" answered by a lookup). The agent's own act ("I've refunded it")
    is a pledge, whatever a tool said."""
    returns: tuple[str, ...] = ()
    """Verbs that give something back to the caller ("vratit ćemo vam", "ćemo vam vratiti",
    "erstatten wir"): with money of :attr:`returned` anywhere in their clause, before or after
    them (the verb last: "Novac ćemo vam vratiti", "Das Geld erstatten wir Ihnen zurück") and
    no negation in it, a refund is promised."""
    returned: tuple[str, ...] = ()
    """Word starts of the money a :attr:`returns` verb gives back ("novac", "razlik", "iznos"):
    a device or a call given back is no refund."""


class RuleWords(_Strict):
    """One language's words for reading a rule: its modality, verb, order and skips."""

    imperative: Pattern
    """An imperative verb form (``""``: the language has no imperative ending; ``verbs`` open one)."""
    verbs: Words
    """Verbs that open a bare imperative (English has no imperative ending)."""
    not_verbs: Words
    """Words the imperative ending catches that are no imperative."""
    should: tuple[str, ...] = Field(min_length=1)
    """Markers of a soft rule."""
    condition: Pattern
    """Opens a leading condition clause (up to the first comma)."""
    before_then: Pattern
    """``Q <before> P``: what follows names the later action."""
    after_first: Pattern
    """``P only after Q``: what follows names what comes first (any rule)."""
    never_until: Pattern
    """``never P until/without/before Q``: in a prohibition, what follows comes first."""
    without: Pattern
    """``<without> Q``: what follows is left out."""
    later: Pattern
    at_once: Pattern
    even: Pattern
    skip_words: Words
    """Pronouns and particles between a marker and its verb ("you may *then* …")."""
    tell: tuple[str, ...] = Field(min_length=1)
    """Stems of verbs that tell the caller something: one action key."""
    generic: tuple[str, ...]
    """Keys of verbs too general to pair rules on one shared word ("ask", "check", "use")."""
    verb_endings: tuple[str, ...]
    """Endings taken off a verb before its key (aspect and person: upišete / upišite)."""
    qualifier: Pattern
    """A situation that limits a rule without a condition clause ("on the same day")."""

    @model_validator(mode="after")
    def _opens_imperatives(self) -> RuleWords:
        if not self.imperative and not self.verbs:
            raise ValueError("rules: neither an imperative ending nor verbs that open an imperative")
        return self


class Lexicon(_Strict):
    """What marks a rule's force and polarity, vague wording, and words with no content.

    Markers are matched on lower-cased text at word boundaries; a phrase may span words, and
    a marker ending in ``*`` is a stem (any ending).
    """

    must: tuple[str, ...] = Field(min_length=1)
    """A hard positive constraint (always / must)."""
    never: tuple[str, ...] = Field(min_length=1)
    """A hard negative constraint (never / do not)."""
    never_patterns: tuple[Pattern, ...]
    """Regular expressions for negative imperatives a word list cannot hold."""
    allow: tuple[str, ...] = Field(min_length=1)
    """A permission or a waiver: weakens a hard rule over the same object."""
    vague: tuple[str, ...] = Field(min_length=1)
    """Hedges and vague quantifiers: more than one reading."""
    weak_vague: tuple[str, ...] = Field(min_length=1)
    """Vague only now and then (counted at half weight)."""
    stop: Words
    """Words that carry no object of a rule."""
    suffixes: tuple[str, ...] = Field(min_length=1)
    """Endings stripped before comparing words (a crude stem: the first that fits)."""
    silent_e: bool
    """Drop a final -e after the ending (English: price / prices, confirm / confirmed)."""
    without: tuple[str, ...] = Field(min_length=1)
    """"Never … without X" is a must: a negated condition turns a never around."""
    rules: RuleWords


class Signature(_Strict):
    """How a text is told to be in this language (``polygon lint --lang auto``)."""

    script: Pattern
    """Letters of a script of its own (``""``: none): a text with over 30% of its letters in it is
    in this language, whatever its words."""
    letters: Pattern
    """Letters only it has among languages of its script, each worth three words (``""``: none)."""
    words: Words
    """Its commonest short words (lower case); each one in a text weighs one."""
    alphabet: Pattern = ""
    """The letters of its ``script`` it writes (``""``: all of them). A text in its script with
    words spelled in letters outside them is another language of that script (Ukrainian's і ї
    є ґ in Cyrillic are not Russian's)."""
    borrowed: Words = frozenset()
    """Words of its lists that a language listed before it in :data:`LANGUAGES` has too ("in",
    "was" for German beside English): ``policy:agent_language`` counts them for that language,
    never this one (and for none in a call held in this one), so adding a language leaves how
    the calls held in the others are told as it was."""

    @model_validator(mode="after")
    def _tells_something(self) -> Signature:
        if not self.script and not self.words:
            raise ValueError("signature: neither a script nor words to tell the language by")
        return self


class Language(_Strict):
    """One language: every section of its file."""

    code: str
    num2words: str
    """The num2words language that spells this language's numbers (noise and scoring read them)."""
    understand: Understand
    acts: Acts
    labels: dict[str, str]
    """A fact key's word → how it is said ("dob" → "date of birth")."""
    say: Say
    types: dict[str, Manner]
    small_talk: SmallTalk
    noise: Noise
    lint: Lexicon
    spoken: Spoken
    signature: Signature
    safety: Safety
    forbids: Forbids

    @model_validator(mode="after")
    def _borrows_its_own_words(self) -> Language:
        own = self.stop_words | self.wh_words | self.weekdays | self.signature.words
        stray = sorted(self.signature.borrowed - own)
        if stray:
            raise ValueError(f"signature.borrowed: {', '.join(stray)} not among the file's words")
        return self

    @field_validator("types")
    @classmethod
    def _every_type(cls, value: dict[str, Manner]) -> dict[str, Manner]:
        missing = [t for t in CALLER_TYPES if t not in value]
        if missing:
            raise ValueError(f"no manner for caller type(s) {', '.join(missing)}")
        if not value["distrustful"].challenge:
            raise ValueError("the distrustful caller needs a challenge")
        return value

    def manner(self, kind: str) -> Manner:
        """A caller type's sentences (a cooperative caller's for a type the pack lacks)."""
        return self.types.get(kind, self.types["cooperative"])

    # Shorthands the caller's understanding reads often.
    @property
    def stop_words(self) -> frozenset[str]:
        """Words that carry no meaning."""
        return self.understand.stop_words

    @property
    def weekdays(self) -> frozenset[str]:
        """The names of the days."""
        return self.understand.weekdays

    @property
    def wh_words(self) -> frozenset[str]:
        """Words of an open question."""
        return self.understand.wh_words


class LanguagePackError(PolygonError):
    """A language file is broken or missing (a packaging fault, not the user's)."""


@functools.cache
def load_language(code: str) -> Language:
    """The language ``code`` (one of :data:`LANGUAGES`), validated; loaded once per process.

    A shipped file's patterns are not compiled one by one here: that took ~0.085 CPU s for the
    five files (the safety section's alone ~0.065) in every process that reads the languages
    (run, judge, import), and the readers compile them again in the forms they use (the
    danger check joins each list into one alternation). ``tests/languages`` compiles every
    pattern of every shipped file; :func:`parse_language` (any other text) still checks each.
    """
    if code not in LANGUAGES:
        raise LanguagePackError(f"no language file {code!r}; available: {', '.join(LANGUAGES)}")
    folder = resources.files("polygon.languages")
    try:
        text = folder.joinpath(f"{code}.yaml").read_text(encoding="utf-8")
    except OSError as exc:
        raise LanguagePackError(f"language {code!r}: {exc}") from exc
    data = parsed_form(text, folder.joinpath(f"{code}.json"))
    if data is None:
        return parse_language(code, text, shipped=True)
    return _validated(code, data, shipped=True)


def parse_language(code: str, text: str, *, shipped: bool = False) -> Language:
    """The language file ``text`` validated as language ``code``."""
    try:
        data = yaml.load(text, Loader=_LOADER)
    except (yaml.YAMLError, ValueError) as exc:
        raise LanguagePackError(f"language {code!r}: {exc}") from exc
    return _validated(code, data, shipped=shipped)


def _validated(code: str, data: Any, *, shipped: bool) -> Language:
    try:
        language = Language.model_validate(data, context={SHIPPED: shipped})
    except ValueError as exc:
        raise LanguagePackError(f"language {code!r}: {exc}") from exc
    if language.code != code:
        raise LanguagePackError(f"language {code!r}: the file says it is {language.code!r}")
    return language


def parsed_text(text: str) -> str:
    """A language file's YAML as JSON, with the SHA-256 of the text it came from.

    ``make docs`` writes it as ``<code>.json`` beside each shipped file.
    """
    parsed = {"yaml_sha256": _sha256(text), "data": yaml.load(text, Loader=_LOADER)}
    return json.dumps(parsed, ensure_ascii=False, indent=1) + "\n"


def parsed_form(text: str, form: Traversable) -> Any:
    """The data of ``text`` from its JSON form; ``None`` where there is none or it is stale.

    A form made from another text (an installed YAML file edited since) is not used: that
    file is read as YAML. YAML is the source; parsing the five files took ~0.03 CPU s in
    every process that reads the languages (run, judge, import), the JSON ~0.001.
    """
    try:
        parsed = json.loads(form.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(parsed, dict) or parsed.get("yaml_sha256") != _sha256(text):
        return None
    return parsed.get("data")


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def caller_language(language: str) -> Language:
    """The language a caller speaks (English for one without its own file)."""
    code = (language or "en").lower().split("-")[0]
    return load_language(code if code in LANGUAGES else "en")
