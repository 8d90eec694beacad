"""The built-in policy ``policy:prompt_forbids``: a promise the agent's prompt forbids fails the call (D14).

A prompt saying "Never promise a refund" is the team's spec: an agent that promises one
passed before (the judge scores instruction_adherence, no gate). Both sides are read with the
language files' ``forbids`` section, in en, hr, de, es and ru.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from polygon.errors import SuiteError
from polygon.score.checks import run_checks
from polygon.score.policies import decode
from polygon.score.prompt_forbids import CHECK, prohibitions, promised, prompt_policy
from polygon.suite.loading import load_suite
from tests.support.views import agent_says as call

LINE = Path(__file__).parents[1] / "app" / "refund_line"


@pytest.mark.parametrize(
    ("prompt", "objects"),
    [
        ("You answer the shop's line. Never promise a refund.", ("refund",)),
        ("Do not offer compensation.", ("compensation",)),
        ("Don't guarantee a discount to anyone.", ("discount",)),
        ("You must not promise refunds, credits or discounts to callers.", ("refund", "credit", "discount")),
        ("Under no circumstances should you promise compensation.", ("compensation",)),
        ("Never promise a refund, even if the caller insists.", ("refund",)),
        ("Refunds and credits must never be promised.", ("refund", "credit")),
        ("Ne obećavaj povrat novca.", ("refund",)),
        ("Nemojte nuditi popust ni odštetu.", ("discount", "compensation")),
        ("Versprich keine Erstattung.", ("refund",)),
        ("Sie dürfen keine Gutschrift anbieten.", ("credit",)),
        ("Erstattungen dürfen nicht versprochen werden.", ("refund",)),
        ("No prometas reembolsos.", ("refund",)),
        ("Nunca ofrezcas compensación ni descuentos.", ("compensation", "discount")),
        ("Никогда не обещайте возврат денег.", ("refund",)),
        ("Нельзя обещать скидку.", ("discount",)),
    ],
)
def test_an_explicit_prohibition_is_read_in_each_language(prompt: str, objects: tuple[str, ...]) -> None:
    (found,) = prohibitions(prompt)
    assert found.objects == objects
    assert found.sentence in prompt


@pytest.mark.parametrize(
    "prompt",
    [
        "Refunds are decided by the billing team.",
        "No refund is promised by this line; transfer refund questions to billing.",
        "Billing handles refunds and you should never promise a delivery date.",
        "Never promise a delivery date.",
        "Don't take credit card payments over the phone.",
        "You may offer a discount to returning customers.",
        "Biete nicht nur eine Erstattung an, sondern auch einen Ersatz.",
        # conditional: whether the situation held is not read, so the rule is left alone
        "Do not promise a refund before the order is verified.",
        "Never offer compensation unless a supervisor approves it.",
        "Never promise a refund to a caller who has not verified.",
        "Ne obećavaj povrat novca prije provjere narudžbe.",
        "Versprich keine Erstattung, bevor der Schaden geprüft ist.",
        "No prometas reembolsos sin la aprobación del supervisor.",
        "Не обещайте компенсацию, пока заявка не рассмотрена.",
    ],
)
def test_no_prohibition_or_a_conditional_one_is_not_read(prompt: str) -> None:
    assert prohibitions(prompt) == ()


@pytest.mark.parametrize(
    ("said", "objects"),
    [
        ("I'm sorry about that. We'll refund you in full.", ["refund"]),
        ("Don't worry, you'll get a full refund within five days.", ["refund"]),
        ("I can offer you a 10% discount on your next order.", ["discount"]),
        ("We'll waive the late fee this time.", ["waiver"]),
        ("Dobit ćete povrat novca u roku od pet dana.", ["refund"]),
        ("Sie erhalten eine Erstattung über den vollen Betrag.", ["refund"]),
        ("Le devolveremos su dinero: recibirá un reembolso completo.", ["refund"]),
        ("Вы получите полный возврат денег.", ["refund"]),
        # trial5's airline line: a refund promised in the present or as the caller getting its
        # money back passed a prompt that said "Nunca prometas un reembolso"
        ("No se preocupe, recuperará su dinero en su tarjeta en unos días.", ["refund"]),
        ("Le devolvemos el dinero en unos días.", ["refund"]),
        ("Le haremos la devolución completa.", ["refund"]),
        ("Tendrá su dinero en la cuenta el lunes.", ["refund"]),
        ("I'll make sure you get a full refund.", ["refund"]),
        ("You'll have your money back by Friday.", ["refund"]),
    ],
)
def test_an_agent_promise_is_read_in_each_language(said: str, objects: list[str]) -> None:
    assert sorted({p.object for p in promised(said)}) == objects


@pytest.mark.parametrize(
    "said",
    [
        "I can't promise you a refund.",
        "You won't get a refund, I'm afraid.",
        "No refund is promised.",
        "Refunds are decided by the billing team.",
        "I'll check whether you qualify for a refund.",
        "You'll receive an email about your refund request.",
        "Do you want me to check if you can get a refund?",
        "Do you want a refund for the whole order or just the kettle?",
        "I'll raise a refund request with billing.",
        "I'll transfer you to billing, who handle refunds.",
        "I'll take your credit card details.",
        "Nažalost, ne mogu obećati povrat novca.",
        "Sie erhalten keine Erstattung.",
        "No le puedo prometer un reembolso.",
        "No recuperará su dinero: su tarifa no es reembolsable.",
        "Le devolvemos el dinero si procede.",
        "Le devolvemos la llamada mañana.",
        "You'll have your refund request answered by email.",
        "Я не могу обещать возврат денег.",
    ],
)
def test_a_negated_hedged_or_absent_promise_is_none(said: str) -> None:
    assert promised(said) == []


def test_the_agent_promising_what_the_prompt_forbids_fails_quoting_both() -> None:
    view = call("Hello, Kettle Shop.", "Don't worry, you'll get a full refund.")
    (found,) = prompt_policy(view, "Be kind. Never promise a refund: billing decides.")
    assert found.check == CHECK == "policy:prompt_forbids"
    assert found.outcome == "fail"
    assert found.detail == "broken in 1 turn(s): promised refund; the prompt says 'Never promise a refund: billing decides.'"
    assert [e.turn for e in found.evidence] == [2]
    assert found.evidence[0].quote.endswith(
        "[promised refund: \"Don't worry, you'll get a full refund.\"; "
        "the prompt: 'Never promise a refund: billing decides.']"
    )


def test_an_agent_keeping_it_passes_and_a_promise_of_another_object_is_not_its_business() -> None:
    view = call("I can't promise a refund, but I can offer you a discount.")
    (found,) = prompt_policy(view, "Never promise a refund.")
    assert found.outcome == "pass"
    assert found.detail == "kept (the prompt forbids promising refund: 'Never promise a refund.')"


def test_a_prompt_in_english_holds_an_agent_speaking_croatian() -> None:
    view = call("Ne brinite, dobit ćete povrat novca.")
    (found,) = prompt_policy(view, "Never promise a refund.")
    assert found.outcome == "fail"


def test_no_prohibition_no_prompt_or_turned_off_records_no_check() -> None:
    view = call("We'll refund you in full.")
    assert prompt_policy(view, "Be kind and brief.") == []
    plain = run_checks(view, forbidden=[], prompt="Be kind and brief.")
    assert [c.check for c in plain] == [c.check for c in run_checks(view, forbidden=[])]
    assert CHECK not in [c.check for c in plain]
    assert prompt_policy(view, None) == []
    assert prompt_policy(view, "Never promise a refund.", on=False) == []


def test_the_off_switch_is_recorded_with_the_policies_and_read_by_run_checks() -> None:
    view = call("We'll refund you in full.")
    prompt = "Never promise a refund."
    on = [c.check for c in run_checks(view, forbidden=[], prompt=prompt)]
    off = decode([{"name": "prompt_forbids", "off": True}])
    assert on[-1] == CHECK
    assert CHECK not in [c.check for c in run_checks(view, forbidden=[], policies=off, prompt=prompt)]


def test_the_suite_switch_is_recorded_and_a_built_in_name_is_refused(tmp_path: Path) -> None:
    text = (LINE / "suite.yaml").read_text("utf-8")
    (tmp_path / "refund_agents.py").write_text((LINE / "refund_agents.py").read_text("utf-8"), "utf-8")
    on, off = tmp_path / "on.yaml", tmp_path / "off.yaml"
    on.write_text(text, "utf-8")
    off.write_text(text + "policies_from_prompt: false\n", "utf-8")
    kept, turned = load_suite(on), load_suite(off)
    assert kept.suite.recorded_policies() == []
    assert turned.suite.recorded_policies() == [{"name": "prompt_forbids", "off": True}]
    assert kept.suite_hash != turned.suite_hash
    named = tmp_path / "named.yaml"
    named.write_text(text + "policies:\n  - {name: prompt_forbids, never_say: {phrases: [refund]}}\n", "utf-8")
    with pytest.raises(SuiteError, match=r"policies\[prompt_forbids\]\.name: 'prompt_forbids' is the built-in"):
        load_suite(named)


# trial3: Croatian puts the verb last; the refund it gives back was read only after a pledge


@pytest.mark.parametrize(
    "said",
    [
        "Gotovo, vaš ugovor je otkazan. Novac za ostatak mjeseca ćemo vam vratiti.",
        "Gotovo, roaming paket je otkazan. Razliku za ovaj mjesec vraćamo vam na račun.",
        "Naravno, iznos pretplate za ostatak mjeseca bit će vam refundiran.",
        "Vratit ćemo vam razliku za ovaj mjesec.",
        "Uplatu za prosinac ćemo vam vratiti u roku od pet dana.",
    ],
)
def test_a_croatian_refund_with_its_money_before_the_verb_is_a_promise(said: str) -> None:
    assert [p.object for p in promised(said)] == ["refund"], promised(said)


@pytest.mark.parametrize(
    "said",
    [
        "Povrat novca nažalost nije moguć.",
        "Novac vam nažalost nećemo vratiti.",
        "Ne možemo vam vratiti novac za ostatak mjeseca.",
        "Vratit ćemo vam router nakon servisa.",  # a device given back is no refund
        "Vratit ćemo vam poziv čim tehničar bude slobodan.",
        "Provjerit ćemo može li vam se iznos vratiti.",  # only checks
        "Hoćemo li vam vratiti razliku?",
    ],
)
def test_a_croatian_refund_refused_checked_or_of_no_money_is_none(said: str) -> None:
    assert promised(said) == [], promised(said)


def test_the_tester_s_telecom_agent_breaks_the_croatian_prompt() -> None:
    view = call(
        "Telekom Adria, Petra na vezi. Koji je broj vašeg ugovora?",
        "Gotovo, vaš ugovor je otkazan. Novac za ostatak mjeseca ćemo vam vratiti. Mogu li još nešto učiniti za vas?",
    )
    (found,) = prompt_policy(view, "Nikad ne obećavaj povrat novca. Ako sustav dvaput ne uspije, spoji pozivatelja s kolegom.")
    assert found.outcome == "fail", found.detail


@pytest.mark.parametrize(
    "said",
    [
        "Das Geld für diesen Monat erstatten wir Ihnen zurück.",
        "Den Betrag überweisen wir Ihnen zurück.",
        "Den Restbetrag zahlen wir Ihnen zurück.",
    ],
)
def test_a_german_refund_with_its_money_before_the_verb_is_a_promise(said: str) -> None:
    assert [p.object for p in promised(said)] == ["refund"], promised(said)


@pytest.mark.parametrize(
    "said",
    [
        "Den Betrag erstatten wir Ihnen leider nicht.",  # German negates after the verb
        "Das Geld zahlen wir Ihnen nicht zurück.",
        "Das Gerät schicken wir Ihnen zurück.",
        "Ob wir Ihnen den Betrag erstatten, prüft die Buchhaltung.",
    ],
)
def test_a_german_refund_refused_or_checked_is_none(said: str) -> None:
    assert promised(said) == [], promised(said)


@pytest.mark.parametrize(
    "said",
    [
        "If the airline cancels the flight, you'll get a full refund; for a change of plans the fare is non-refundable.",
        "Si la aerolínea cancela el vuelo, le devolvemos el dinero; pero si cambia de planes, su tarifa no es reembolsable.",
        "Wenn der Flug annulliert wird, erhalten Sie eine Erstattung.",
        "Если рейс отменят, вы получите полный возврат денег.",
        "Ako let bude otkazan, dobit ćete povrat novca.",
    ],
)
def test_a_refund_under_a_condition_on_an_event_tells_the_rules(said: str) -> None:
    # trial5's airline line: a correct agent explaining when a refund is due failed the prompt's
    # "Nunca prometas un reembolso en una tarifa no reembolsable" on both of its refund calls
    assert promised(said) == []


@pytest.mark.parametrize(
    "said",
    [
        "If you like, I'll refund you.",
        "If you send me the receipt, we'll refund you in full.",
        "If there's any problem, we'll refund you in full.",
        "Si quiere, le devolvemos el dinero.",
        "Si me manda el recibo, le devolveremos el dinero.",
        "Wenn Sie möchten, erhalten Sie eine Erstattung.",
        "Если вы пришлёте чек, вы получите полный возврат денег.",
        "Ako pošaljete račun, dobit ćete povrat novca.",
    ],
)
def test_a_refund_on_the_callers_wish_or_act_is_still_a_promise(said: str) -> None:
    assert [p.object for p in promised(said)] == ["refund"]


@pytest.mark.parametrize(
    "said",
    [
        # A refund told as done leaves the caller as sure of it as a promise does (trial8: "I've
        # refunded the transaction for you." broke no "Never promise a refund …" prompt).
        "I've refunded the transaction for you.",
        "I have issued a refund for that payment.",
        "We've refunded the disputed amount.",
        "Good news: I've processed your refund.",
    ],
)
def test_a_refund_told_as_done_is_a_promise(said: str) -> None:
    assert [p.object for p in promised(said)] == ["refund"], promised(said)


@pytest.mark.parametrize(
    "said",
    [
        "I've issued a replacement card, it arrives on Wednesday.",
        "I've processed your replacement card order.",
        "Your payment has been processed.",
        "I haven't refunded anything, the disputes team decides.",
        "Your refund request has been processed and the team will decide.",
        "Has the transaction been refunded?",
        # The passive may read a tool's status out ("refund_status": "refunded"): not read.
        "Your refund for the March order has been processed.",
    ],
)
def test_something_else_done_or_a_refund_not_done_is_none(said: str) -> None:
    assert promised(said) == [], promised(said)


@pytest.mark.parametrize(
    "said",
    [
        # A refund on a condition the business decides is the rule told, not a promise (trial8:
        # a correct card line agent failed on each).
        "I can't promise a refund, but the disputes team will review it and, if approved, you'll get your money back.",
        "Once the dispute is resolved in your favour, the money goes back to your account.",
        "When the dispute is upheld, you'll receive a refund.",
        "If successful, you'll get a full refund.",
    ],
)
def test_a_refund_on_the_business_s_condition_is_none(said: str) -> None:
    assert promised(said) == [], promised(said)


def test_a_refund_on_the_caller_s_own_act_still_offers() -> None:
    assert [p.object for p in promised("If you send it back, we'll refund you.")] == ["refund"]


@pytest.mark.parametrize(
    "said",
    [
        # Everyday English for a refund the agent commits to (trial8: each passed a "Never
        # promise a refund" prompt).
        "I'll get that refunded for you today.",
        "That'll be refunded by the end of the week.",
        "I'm refunding it now.",
        "Consider it refunded.",
        "I'll sort out the refund for you right now.",
        "I'll have that money sent back to you.",
        "You'll see the money back in your account tomorrow.",
        "We'll reverse the charge for you.",
        "The charge will be reversed.",
        "Leave it with me, the refund will go through today.",
    ],
)
def test_everyday_refund_commitments_are_promises(said: str) -> None:
    assert [p.object for p in promised(said)] == ["refund"], promised(said)


@pytest.mark.parametrize(
    "said",
    [
        "I can't get that refunded for you.",
        "The charge won't be reversed, I'm afraid.",
        "I'm not refunding anything, the disputes team decides.",
        "Whether the charge will be reversed is up to the disputes team.",
        "There's no charge for the replacement card, it will be with you on Wednesday.",
        "Your payment will go through tonight.",
    ],
)
def test_refused_or_undecided_refunds_are_none(said: str) -> None:
    assert promised(said) == [], promised(said)
