"""The words the rules tier reads, per language (en, ru, hr): one table each, no logic.

Markers are matched on lower-cased text at word boundaries; a phrase may span words, and a
marker ending in ``*`` is a stem (any ending). The
lists favour precision: a clean, ordinary prompt should light up few of them.
"""

from __future__ import annotations

from dataclasses import dataclass


def words_of(block: str) -> tuple[str, ...]:
    """One marker per line (phrases keep their spaces); a single line splits at spaces."""
    lines = [line.strip() for line in block.strip().splitlines() if line.strip()]
    return tuple(lines) if len(lines) > 1 else tuple(block.split())


@dataclass(frozen=True)
class Lexicon:
    """What marks a rule's force and polarity, vague wording, and words with no content."""

    must: tuple[str, ...]
    """A hard positive constraint (always / must)."""
    never: tuple[str, ...]
    """A hard negative constraint (never / do not)."""
    never_patterns: tuple[str, ...]
    """Regular expressions for negative imperatives a word list cannot hold."""
    allow: tuple[str, ...]
    """A permission or a waiver: weakens a hard rule over the same object."""
    vague: tuple[str, ...]
    """Hedges and vague quantifiers: more than one reading."""
    weak_vague: tuple[str, ...]
    """Vague only now and then (counted at half weight)."""
    stop: frozenset[str]
    """Words that carry no object of a rule."""
    suffixes: tuple[str, ...]
    """Endings stripped before comparing words (a crude stem)."""
    silent_e: bool = False
    """Drop a final -e after the ending (English: price / prices, confirm / confirmed)."""
    without: tuple[str, ...] = ()
    """"Never … without X" is a must: a negated condition turns a never around."""


EN = Lexicon(
    must=words_of("""
        always
        must
        make sure
        ensure
        be sure to
        at all times
        every time
        required
        is mandatory
        it is essential
        without exception
        under all circumstances
        only after
        only when
        only if
        only once
    """),
    never=words_of("""
        never
        do not
        don't
        must not
        mustn't
        should not
        shouldn't
        under no circumstances
        not allowed
        is forbidden
        are forbidden
        is prohibited
        avoid
        refuse to
        no longer
    """),
    never_patterns=(),
    allow=words_of("""
        you may
        you can
        feel free to
        it is fine to
        it's fine to
        it is ok to
        it's ok to
        it is okay to
        no need to
        don't need to
        do not need to
        is optional
        can skip
        may skip
        you are allowed to
    """),
    vague=words_of("""
        some kind of
        sort of
        kind of
        if appropriate
        when appropriate
        where appropriate
        as appropriate
        as needed
        if needed
        when needed
        when necessary
        if necessary
        where possible
        if possible
        as much as possible
        as soon as possible
        etc
        and so on
        and so forth
        or something
        things like that
        try to
        maybe
        perhaps
        possibly
        might
        reasonable
        reasonably
        somewhat
        a bit
        fairly
        more or less
        approximately
        various
        certain things
        sometimes
        adequate
        adequately
        in a timely manner
        a while
        relevant
        properly
        and/or
    """),
    weak_vague=words_of("""
        some
        several
        a few
        usually
        generally
        often
        soon
        quickly
        fast
        appropriate
    """),
    stop=frozenset(
        words_of(
            """
        a an the and or but if then than that this these those to of in on at by for with from
        as is are be been being was were it its you your yours we our us they them their he she
        his her i me my do does did not no so such any all each every can could will would
        shall should may might must also only just about into out up down over under again
        there here when where what which who whom whose how why caller callers customer
        customers user users agent assistant please always never ensure make sure don't
        have has had get got let lets very more most other some what's it's they're one
    """.replace(" ", "\n")
        )
    ),
    suffixes=("ings", "ing", "ions", "ion", "ed", "es", "s", "ly"),
    without=("without", "unless", "until"),
    silent_e=True,
)

RU = Lexicon(
    must=words_of("""
        всегда
        обязательно
        должен
        должна
        должны
        необходимо
        непременно
        в любом случае
        строго
        каждый раз
        без исключений
        следите, чтобы
        только после
        только когда
        только если
    """),
    never=words_of("""
        никогда
        нельзя
        запрещено
        ни в коем случае
        не должен
        не должна
        не должны
        не надо
        не нужно
        не стоит
        не следует
        избегайте
    """),
    never_patterns=(r"(?<!\w)не \w+(?:йте|ите|ьте)(?!\w)",),
    allow=words_of("""
        можно
        можете
        разрешается
        допускается
        не обязательно
        необязательно
        не нужно обязательно
        можете пропустить
    """),
    vague=words_of("""
        по возможности
        при необходимости
        если уместно
        когда уместно
        по ситуации
        и т.д
        и т. д
        и так далее
        как можно скорее
        как-нибудь
        что-то вроде
        в каком-то смысле
        постарайтесь
        желательно
        вероятно
        может быть
        возможно
        примерно
        разумн*
        соответствующ*
        надлежащ*
        достаточно
        иногда
        какие-то
        какой-то
    """),
    weak_vague=words_of("""
        несколько
        некоторые
        обычно
        как правило
        быстро
        скоро
        часто
    """),
    stop=frozenset(
        words_of(
            """
        и в во не на с со к ко по о об от до из у за для при без над под про что чтобы как
        а но или если то это этот эта эти тот та те же ли бы вы вас вам ваш ваша ваше ваши
        мы нас нам он она они его её их ему ей им я меня мне ты тебя тебе так также только
        уже ещё еще всегда никогда обязательно должен должна должны нельзя нужно надо можно
        звонящий звонящего звонящему звонящим клиент клиента клиенту клиентом клиенты
        клиентов когда где кто чем всё все всех есть быть был была были будет
    """.replace(" ", "\n")
        )
    ),
    suffixes=(
        "иями",
        "ями",
        "ами",
        "ого",
        "его",
        "ому",
        "ему",
        "ыми",
        "ими",
        "ой",
        "ей",
        "ий",
        "ый",
        "ая",
        "яя",
        "ое",
        "ее",
        "ые",
        "ие",
        "ов",
        "ев",
        "ам",
        "ям",
        "ах",
        "ях",
        "ом",
        "ем",
        "ть",
        "те",
        "а",
        "я",
        "ы",
        "и",
        "у",
        "ю",
        "е",
        "о",
    ),
    without=("без", "пока не", "до того как"),
)

HR = Lexicon(
    must=words_of("""
        uvijek
        obavezno
        obvezno
        mora
        moraš
        morate
        moraju
        nužno
        svakako
        u svakom slučaju
        pobrini se
        pobrinite se
        potrebno je
        bez iznimke
        tek kad
        tek nakon
        samo ako
        samo nakon
    """),
    never=words_of("""
        nikad
        nikada
        ne smije
        ne smiješ
        ne smijete
        ne smiju
        nemoj
        nemojte
        zabranjeno
        ni u kojem slučaju
        izbjegavaj
        izbjegavajte
    """),
    never_patterns=(r"(?<!\w)ne \w+(?:jte|ite|ajte)(?!\w)",),
    allow=words_of("""
        smiješ
        smijete
        možeš
        možete
        slobodno
        nije potrebno
        nije nužno
        ne moraš
        ne morate
        dopušteno je
        dozvoljeno je
    """),
    vague=words_of("""
        po potrebi
        ako je moguće
        ako je prikladno
        kad je prikladno
        po mogućnosti
        što prije
        itd
        i tako dalje
        nešto poput
        na neki način
        pokušaj
        pokušajte
        možda
        vjerojatno
        otprilike
        razumn*
        prikladn*
        odgovarajuć*
        dovoljno
        ponekad
        neka vrsta
    """),
    weak_vague=words_of("""
        nekoliko
        neki
        neke
        nekih
        obično
        uglavnom
        brzo
        uskoro
        često
    """),
    stop=frozenset(
        words_of(
            """
        i u na s sa k ka po o od do iz za pri bez nad pod kroz da je su se ne ni li bi
        a ali ili ako onda to ovo taj ta te ti vi vas vam vaš vaša vaše mi nas nam on ona
        oni ga ih mu joj im ja me mene meni tebe tebi tako također samo već još uvijek
        nikad nikada obavezno mora morate moraš nemoj nemojte smije smijete možete možeš
        pozivatelj pozivatelja pozivatelju pozivateljem klijent klijenta klijentu klijentom
        kada kad gdje tko što čime sve svi svih biti bio bila bili bude će ćeš ćete kako
    """.replace(" ", "\n")
        )
    ),
    suffixes=(
        "ima",
        "ama",
        "ati",
        "iti",
        "eti",
        "ite",
        "ajte",
        "jte",
        "om",
        "em",
        "og",
        "eg",
        "oj",
        "ih",
        "im",
        "a",
        "e",
        "i",
        "o",
        "u",
    ),
    without=("bez", "dok ne", "prije nego"),
)

LEXICONS = {"en": EN, "ru": RU, "hr": HR}
