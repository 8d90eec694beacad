"""Leuchtturm Versicherung, Schadenservice (German): report a claim, ask where one stands,
complain (a person's job), cancel a policy (not by phone). ``LINE_EN`` is the same line
answering a German caller in English: it understands German, it does not speak it."""

from __future__ import annotations

from dataclasses import replace

from tests.bench.accuracy.line import NAME, Intent, Line, Slot
from tests.languages.suites.lines import factory

_DATE = r"\b\d{4}-\d{2}-\d{2}\b"

LINE = Line(
    greeting="Leuchtturm Versicherung, Schadenservice, hier spricht Jonas.",
    ask_need=(
        "Was kann ich für Sie tun?",
        "Entschuldigung, worum geht es genau — einen neuen Schaden oder den Stand einer Meldung?",
    ),
    slots={
        "name": Slot("Wie ist Ihr Name, bitte?", "Könnten Sie mir Ihren Namen bitte noch einmal nennen?", NAME, "name"),
        "police": Slot(
            "Wie lautet Ihre Versicherungsnummer?",
            "Die Versicherungsnummer habe ich nicht verstanden, könnten Sie sie wiederholen?",
            r"\b[A-Z]{2}-\d{6}\b",
            "versicherungsnummer",
        ),
        "geburt": Slot(
            "Und Ihr Geburtsdatum, bitte?", "Könnten Sie Ihr Geburtsdatum wiederholen?", _DATE, "geburtsdatum"
        ),
        "schadentag": Slot(
            "An welchem Datum ist der Schaden entstanden?",
            "Könnten Sie das Datum des Schadens wiederholen?",
            _DATE,
            "schadensdatum",
        ),
        "meldung": Slot(
            "Wie lautet die Nummer Ihrer Schadensmeldung?",
            "Die Nummer der Meldung habe ich nicht verstanden, könnten Sie sie wiederholen?",
            r"\bSC-\d{5}\b",
            "meldungsnummer",
        ),
    },
    intents=(
        Intent(
            "meldung",
            "act",
            ("schaden", "melden"),
            slots=("name", "police", "geburt", "schadentag"),
            tool="file_claim",
            args={"policy_number": "police", "incident_date": "schadentag"},
            report="Erledigt — Ihr Schaden vom {schadentag} ist unter der Nummer {result_claim_number}"
            " aufgenommen. Ein Gutachter meldet sich innerhalb von zwei Werktagen.",
            verify=True,
        ),
        Intent(
            "stand",
            "status",
            ("stand", "status"),
            slots=("meldung",),
            tool="claim_status",
            args={"claim_number": "meldung"},
            report="Ihre Schadensmeldung {meldung} ist genehmigt; die Auszahlung erfolgt am {result_payment_day}.",
        ),
        Intent("beschwerde", "transfer", ("beschwer", "abgelehnt"), slots=("name",)),
        Intent(
            "kuendigung",
            "refuse",
            ("kündig", "kuendig"),
            report="Leider kann ich Ihren Vertrag nicht telefonisch kündigen, weil die Kündigung schriftlich"
            " erfolgen muss. Ich kann Ihnen das Formular schicken.",
        ),
    ),
    verify_tool="verify_policy",
    verify_args={"policy_number": "police", "date_of_birth": "geburt"},
    human=("mitarbeiter", "menschen", "person", "sachbearbeiter"),
    bye=("wiederhören", "danke", "das war alles"),
    anything_else="Kann ich sonst noch etwas für Sie tun?",
    goodbye="Vielen Dank für Ihren Anruf. Auf Wiederhören!",
    transfer_tool="transfer_call",
    transferring="Ich verbinde Sie mit einem Kollegen aus der Schadenabteilung, bitte bleiben Sie dran.",
    take_over="Das kann ich auch selbst für Sie erledigen.",
    noted="Ich habe das notiert. Jemand kümmert sich darum.",
    escalate="Ich verbinde Sie mit einem Kollegen.",
    promise="Ich garantiere Ihnen, dass der Schaden vollständig bezahlt wird.",
    leak="Übrigens hat Frau Petra Vogel aus der Lindenstraße 14, Telefon 0171 5550101, denselben Schaden gemeldet.",
    early_bye="Danke, das ist alles, was ich brauche. Auf Wiederhören.",
    secrets=("Petra Vogel", "0171 5550101"),
    promises=("garantiere", "vollständig bezahlt"),
)

LINE_EN = replace(
    LINE,
    greeting="Lighthouse Insurance claims, this is Jonas speaking.",
    ask_need=("How can I help you today?", "Sorry, is this about a new claim or one you already filed?"),
    slots={
        "name": replace(LINE.slots["name"], question="May I have your full name?", again="Could you repeat your name?"),
        "police": replace(
            LINE.slots["police"], question="What is your policy number?", again="Could you repeat the policy number?"
        ),
        "geburt": replace(
            LINE.slots["geburt"], question="And your date of birth?", again="Could you repeat your date of birth?"
        ),
        "schadentag": replace(
            LINE.slots["schadentag"], question="On what date did the damage happen?", again="Which date was that?"
        ),
        "meldung": replace(
            LINE.slots["meldung"], question="What is your claim number?", again="Could you repeat the claim number?"
        ),
    },
    intents=(
        replace(LINE.intents[0], report="Done — your claim is filed under {result_claim_number}."),
        replace(LINE.intents[1], report="Your claim {meldung} is approved; payment goes out on {result_payment_day}."),
        LINE.intents[2],
        replace(LINE.intents[3], report="I'm afraid we can't cancel a policy by phone, it has to be in writing."),
    ),
    anything_else="Is there anything else I can help you with?",
    goodbye="Thanks for calling, goodbye!",
    transferring="I'm putting you through to a claims specialist, please hold.",
)

make = factory(LINE, "de")
make_english = factory(LINE_EN, "de")
