"""The scripted caller's language packs: the words of a language, not of a domain.

Each pack holds what the caller needs to understand an agent in that language (stop words,
question words and what they ask for, offers, "done", weekdays) and its own small talk per
caller type (digressions, complaints, worries, how it says it does not know, how it
corrects). Nothing names a business: the same caller orders pizza, books a dentist or
rebooks a flight.
"""

from __future__ import annotations

from dataclasses import dataclass, field


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


@dataclass(frozen=True)
class CallerPack:
    """One language."""

    stop_words: frozenset[str]
    question_hints: dict[str, tuple[str, ...]]
    """Question word → the key words (or value shapes: ``time``, ``number``) it asks for."""
    weekdays: frozenset[str]
    offers: tuple[str, ...]
    """Phrases that put something to the caller to accept or decline."""
    wh_words: frozenset[str]
    """Words of an open question ("which pizza would you like" is not an offer)."""
    wants: tuple[str, ...]
    """Phrases that ask what the caller wants ("what would you like"): the goal answers them."""
    cannot: tuple[str, ...]
    """Phrases of an agent saying it cannot give what was asked."""
    demands: dict[str, str]
    """Question word → a mark the answer must carry ("email" → "@")."""
    done: tuple[str, ...]
    """Phrases that report something done."""
    ask_goals: frozenset[str]
    """Goal verbs of a caller who only wants to know something."""
    digressions: tuple[str, ...]
    complaints: tuple[str, ...]
    threats: tuple[str, ...]
    worries: tuple[str, ...]
    unknown: dict[str, str] = field(default_factory=dict)
    """Caller type → how it says it does not have what was asked."""
    correct: dict[str, str] = field(default_factory=dict)
    """``first``, ``insist``, ``accept``: templates with ``{right}`` and ``{said}``."""


EN = CallerPack(
    stop_words=_words(
        """
        a an the and or but if to of in on at for from by with about as is are was were be been am
        do does did have has had i you he she it we they me my your our their this that these
        those what which who whom whose when where why how can could would should will shall may
        might must please thank thanks yes no not ok okay so just like want need get let us there
        here any some one all up down out over again also very too now then than
        """
    ),
    question_hints={
        "when": ("time", "date", "day", "when"),
        "time": ("time",),
        "where": ("address", "location", "place", "where"),
        "who": ("name",),
        "number": ("number", "phone"),
        "reach": ("phone", "number", "email"),
        "call": ("phone", "number"),
    },
    weekdays=frozenset(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]),
    wh_words=_words("what which when where who whom whose how why"),
    demands={"email": "@", "e-mail": "@"},
    wants=("would you like", "do you want", "can i get you", "what can i do", "how can i help", "will it be"),
    cannot=(
        "don't",
        "do not",
        "can't",
        "cannot",
        "i'm afraid",
        "unfortunately",
        "not available",
        "no longer",
    ),
    offers=(
        "shall i",
        "should i",
        "would you like",
        "does that work",
        "is that correct",
        "is that right",
        "do you want",
        "can i confirm",
        "to confirm",
    ),
    done=(
        "done",
        "all set",
        "confirmed",
        "booked",
        "placed",
        "scheduled",
        "on its way",
        "on the way",
        "out for",
        "sorted",
        "taken care of",
        "is ready",
        "will be",
    ),
    ask_goals=frozenset({"ask", "check", "find", "know", "hear", "learn", "see"}),
    digressions=(
        "Sorry, it's a bit noisy here, I'm in the car.",
        "Oh, and it's raining again here, can you believe it?",
        "My dog is barking, sorry if you can't hear me well.",
        "I had such a long day today, honestly.",
    ),
    complaints=("This is taking forever.", "I've been waiting ages.", "Honestly, this is ridiculous."),
    threats=("Or I'll just go somewhere else.", "Otherwise I'm taking my business elsewhere."),
    worries=("Will this take long?", "Is there any extra cost?", "Can you promise that?"),
    unknown={
        "cooperative": "Sorry, I don't have that.",
        "busy": "Don't know. Next?",
        "distrustful": "Why would you need that? I'm not giving you that.",
        "confused": "Oh... I don't know that, should I?",
        "aggressive": "How would I know that? Just get on with it.",
        "chatty": "Oh goodness, I couldn't tell you that, sorry!",
    },
    correct={
        "first": "No — {right}, not {said}.",
        "insist": "No! I said {right}. Not {said}. Please get it right.",
        "accept": "Oh... {said}? Okay, I suppose that's fine.",
    },
)

RU = CallerPack(
    stop_words=_words(
        """
        и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только ее
        мне было вот от меня еще нет о из ему теперь когда даже ну вдруг ли если уже или ни быть
        был него до вас нибудь опять уж вам ведь там потом себя ничего ей может они тут где есть
        надо ней для мы тебя их чем была сам чтобы без будто чего раз тоже себе под будет ж тогда
        кто этот того потому этого какой совсем ним здесь этом один почти мой тем чтобы нее сейчас
        пожалуйста спасибо ваш ваше вашу
        """
    ),
    question_hints={
        "когда": ("time", "date", "day", "время", "дата", "день"),
        "время": ("time",),
        "где": ("address", "адрес", "location"),
        "куда": ("address", "адрес"),
        "кто": ("name", "имя"),
        "номер": ("phone", "number", "телефон"),
        "телефон": ("phone", "number"),
    },
    weekdays=_words(
        """
        понедельник вторник среда среду четверг пятница пятницу суббота субботу воскресенье
        """
    ),
    wh_words=_words("что какой какая какое какие когда где куда кто как почему сколько"),
    demands={"email": "@", "почта": "@", "почту": "@"},
    wants=("хотите", "желаете", "чем могу помочь"),
    cannot=("не можем", "не могу", "нет в наличии", "к сожалению", "не делаем"),
    offers=("хотите", "подтвердить", "подтверждаете", "верно", "правильно", "подходит"),
    done=("готово", "подтвержден", "подтверждено", "оформлен", "записал", "записала", "в пути", "сделано"),
    ask_goals=frozenset({"узнать", "спросить", "проверить"}),
    digressions=(
        "Извините, тут шумно, я в машине.",
        "Ох, у нас опять дождь, представляете?",
        "Собака лает, извините, если плохо слышно.",
    ),
    complaints=("Это так долго.", "Я уже сколько жду.", "Честно, это просто смешно."),
    threats=("Или я пойду в другое место.",),
    worries=("Это долго?", "Это будет стоить дополнительно?", "Вы можете это обещать?"),
    unknown={
        "cooperative": "Извините, этого у меня нет.",
        "busy": "Не знаю. Дальше?",
        "distrustful": "А зачем вам это? Я не скажу.",
        "confused": "Ой... я не знаю, а надо?",
        "aggressive": "Откуда мне знать? Давайте быстрее.",
        "chatty": "Ой, этого я вам не скажу, извините!",
    },
    correct={
        "first": "Нет — {right}, а не {said}.",
        "insist": "Нет! Я сказал {right}. Не {said}.",
        "accept": "Ой... {said}? Ну ладно, пусть так.",
    },
)

HR = CallerPack(
    stop_words=_words(
        """
        i a ali da ne je su sam si smo ste biti bio bila bilo to taj ta te ti ja on ona mi vi oni
        u na za od do s sa o po iz kod što koji koja koje kako kada gdje tko zašto li ili još već
        samo vrlo molim hvala vaš vaša vaše vam me mi moj moja moje
        """
    ),
    question_hints={
        "kada": ("time", "date", "day", "vrijeme", "datum", "dan"),
        "vrijeme": ("time",),
        "gdje": ("address", "adresa", "location"),
        "kamo": ("address", "adresa"),
        "tko": ("name", "ime"),
        "broj": ("phone", "number", "telefon"),
        "telefon": ("phone", "number"),
    },
    weekdays=_words(
        """
        ponedjeljak utorak srijeda srijedu četvrtak petak subota subotu nedjelja nedjelju
        """
    ),
    wh_words=_words("što koji koja koje kada gdje kamo tko kako zašto koliko"),
    demands={"email": "@", "e-mail": "@", "mail": "@"},
    wants=("želite", "biste li", "kako vam mogu pomoći"),
    cannot=("ne možemo", "ne mogu", "nažalost", "nemamo", "ne radimo"),
    offers=("želite li", "potvrđujete", "je li to točno", "odgovara li", "mogu li potvrditi"),
    done=("gotovo", "potvrđeno", "rezervirano", "naručeno", "na putu", "sređeno", "riješeno"),
    ask_goals=frozenset({"pitati", "provjeriti", "saznati", "čuti"}),
    digressions=(
        "Oprostite, bučno je, u autu sam.",
        "Opet pada kiša ovdje, možete li vjerovati?",
        "Pas mi laje, oprostite ako se loše čuje.",
    ),
    complaints=("Ovo traje vječnost.", "Čekam već dugo.", "Iskreno, ovo je smiješno."),
    threats=("Ili ću otići negdje drugdje.",),
    worries=("Hoće li to dugo trajati?", "Košta li to dodatno?", "Možete li to obećati?"),
    unknown={
        "cooperative": "Oprostite, to nemam.",
        "busy": "Ne znam. Dalje?",
        "distrustful": "Zašto vam to treba? Neću vam reći.",
        "confused": "Joj... ne znam, trebam li znati?",
        "aggressive": "Otkud bih ja to znao? Ajmo dalje.",
        "chatty": "Joj, to vam stvarno ne znam reći, oprostite!",
    },
    correct={
        "first": "Ne — {right}, a ne {said}.",
        "insist": "Ne! Rekao sam {right}. Ne {said}.",
        "accept": "Joj... {said}? Dobro, neka bude.",
    },
)

PACKS = {"en": EN, "ru": RU, "hr": HR}


def caller_pack(language: str) -> CallerPack:
    """The pack of a language (English for one without its own)."""
    return PACKS.get(language, EN)
