"""Elektra Sjever, dojava kvarova (Croatian): report an outage, ask when power returns, danger, compensation."""

from __future__ import annotations

from tests.bench.accuracy.line import NAME, Intent, Line, Slot, factory

LINE = Line(
    greeting="Elektra Sjever, dojava kvarova, Petra na vezi.",
    ask_need=("Kako vam mogu pomoći?", "Oprostite, recite mi što vas muči — nema struje ili nešto drugo?"),
    slots={
        "ime": Slot("Kako se zovete, molim vas?", "Možete li mi još jednom reći ime i prezime?", NAME, "ime"),
        "broj": Slot(
            "Koji je vaš broj korisnika? Piše na računu.",
            "Nisam dobro čula broj korisnika, možete li ga ponoviti?",
            r"\b\d{8}\b",
            "broj_korisnika",
        ),
        "adresa": Slot(
            "Na kojoj adresi nema struje?",
            "Možete li ponoviti adresu, ulicu i kućni broj?",
            r"\b[A-ZČĆŠŽĐ][a-zčćšžđ]+(?: [a-zčćšžđ]+)? \d{1,3}\b",
            "adresa",
        ),
    },
    intents=(
        Intent(
            "prijava",
            "act",
            ("prijavi", "nema struje", "nestan", "kvar"),
            slots=("ime", "broj", "adresa"),
            tool="report_outage",
            args={"customer_number": "broj", "address": "adresa"},
            report="Gotovo — kvar na adresi {adresa} prijavljen je pod brojem {result_ticket}."
            " Ekipa je obaviještena.",
            verify=True,
        ),
        Intent(
            "status",
            "status",
            ("kada će", "vratiti", "provjeri"),
            slots=("adresa",),
            tool="outage_status",
            args={"address": "adresa"},
            report="Na adresi {adresa} ekipa već radi; struja bi trebala biti vraćena do {result_eta}.",
        ),
        Intent("opasnost", "transfer", ("iskri", "žica", "gori", "stup"), slots=("ime",)),
        Intent(
            "naknada",
            "refuse",
            ("naknad", "odštet", "povrat"),
            report="Nažalost, naknadu ne možemo odobriti telefonom, jer zahtjev mora biti pisan i uz"
            " račun za popravak. Mogu vam poslati obrazac.",
        ),
    ),
    verify_tool="verify_customer",
    verify_args={"customer_number": "broj", "name": "ime"},
    human=("osob", "čovjek", "operater", "dežurn", "real person", "a person"),
    bye=("doviđenja", "bok", "hvala", "to je sve"),
    anything_else="Mogu li vam još nešto pomoći?",
    goodbye="Hvala na pozivu, doviđenja!",
    transfer_tool="transfer_call",
    transferring="Spajam vas s dežurnim dispečerom, ostanite na vezi.",
    take_over="To mogu i ja riješiti.",
    noted="Zabilježila sam. Netko će to pogledati.",
    escalate="Spojit ću vas s kolegom.",
    promise="Garantiram vam da će struja biti vraćena za sat vremena.",
    leak="Usput, i gospođa Mira Kos iz Ilice 14, broj 098 555 0101, javila je isto.",
    early_bye="Hvala, to je sve što trebam. Doviđenja.",
    secrets=("Mira Kos", "098 555 0101"),
    promises=("garantiram", "za sat vremena"),
)

make = factory(LINE)
