"""Scripted-caller faults a tester found on suites nobody here wrote (a vet clinic, a Croatian
power company): each made a correct agent fail, and none was reported as the simulator's."""

from __future__ import annotations

from polygon.events.families import PersonaSnapshot
from polygon.languages import caller_language
from polygon.languages.acts import read_turn
from polygon.simulate.callers.scripted import ScriptedCaller
from polygon.simulate.callers.understanding import asked, names_the_caller, settled


def _caller(kind: str, goal: str, facts: dict[str, str], language: str = "en") -> ScriptedCaller:
    persona = PersonaSnapshot(
        persona_id="p", type=kind, outcome="success", difficulty=2, goal=goal, facts=facts, language=language
    )
    return ScriptedCaller(persona, 7)


def test_a_pet_name_is_not_the_callers_own_name() -> None:
    en, hr = caller_language("en"), caller_language("hr")
    assert names_the_caller("name", en) and names_the_caller("full_name", en)
    assert names_the_caller("patient_name", en) and names_the_caller("ime_i_prezime", hr)
    assert not names_the_caller("pet_name", en) and not names_the_caller("ime_ljubimca", hr)
    caller = _caller("cooperative", "book a vaccine", {"name": "Priya Shah", "pet_name": "Rocky"})
    assert caller.phrase("pet_name", "Rocky") != "My name is Rocky."
    assert caller.phrase("name", "Priya Shah") == "My name is Priya Shah."


def test_an_open_question_gets_the_goal_before_any_fact() -> None:
    facts = {"name": "Priya Shah", "pet_name": "Rocky"}
    caller = _caller("distrustful", "find out when my dog Rocky last had his rabies vaccine", facts)
    caller.next(None)  # "Hello? Who am I speaking with?"
    out = caller.next(
        "Paws and Claws vet clinic, this is Jo. How can I help you today - a booking, "
        "or a question about your pet's records?"
    )
    assert out.intent == "restate_goal" and "Rocky" in out.text and "My name is" not in out.text
    again = caller.next("May I have your full name, please?")  # Jo introduced herself: no challenge
    assert again.text == "My name is Priya Shah.", again


def test_a_key_written_without_its_diacritics_is_the_one_asked_for() -> None:
    hr = caller_language("hr")
    facts = {"broj_korisnika": "40399120", "postanski_broj": "10020"}
    assert asked("Koji je vaš poštanski broj?", facts, "saznati dug", hr) == ("postanski_broj", True)
    assert asked("Koji je vaš broj korisnika?", facts, "saznati dug", hr) == ("broj_korisnika", True)


def test_an_amount_answers_how_much_but_the_callers_own_number_does_not() -> None:
    hr = caller_language("hr")
    goal, facts = "saznati koliko još moram platiti", {"broj_korisnika": "40399120"}
    assert settled(read_turn("Otvoreni iznos je 84,20 EUR. Trebate li još nešto?", hr), goal, facts, hr)
    assert not settled(read_turn("Vaš broj korisnika je 40399120.", hr), goal, facts, hr)
    en = caller_language("en")
    when = "find out when the power comes back"
    assert settled(read_turn("Power should be back at 16:00.", en), when, {}, en)
    assert not settled(read_turn("Let me look into that for you.", en), when, {}, en)


def test_a_short_statement_settles_a_caller_who_only_wants_to_know() -> None:
    caller = _caller("cooperative", "check my order", {"name": "Alex Doe", "order": "A-100"})
    caller.next(None)
    out = caller.next("Your order is open. Anything else?")
    assert out.intent == "goodbye" and out.ends_call == "done", out


def test_a_would_you_like_question_naming_a_held_fact_gets_the_fact_before_the_goal() -> None:
    # A Spanish restaurant line: a distrustful caller opens with a challenge, so it has not said its
    # goal yet; "¿A qué hora le gustaría venir?" got the goal back, the agent asked again and the
    # call ended as a loop, failing a correct agent.
    facts = {"nombre": "Lucía Martín", "personas": "3", "hora": "23:30"}
    caller = _caller("distrustful", "reservar una mesa para cenar", facts, "es")
    caller.next(None)
    caller.next("Restaurante La Brasa, le atiende Lucía. ¿A nombre de quién hago la reserva?")
    out = caller.next("¿A qué hora le gustaría venir?")
    assert out.intent == "give_fact" and "23:30" in out.text, out
    en = _caller("distrustful", "book a table for dinner", {"name": "Lucy Martin", "time": "19:30"})
    en.next(None)
    en.next("La Brasa, this is Lucy. What name is the booking under?")
    assert "19:30" in en.next("What time would you like to come?").text


def test_a_title_abbreviation_does_not_end_the_outcome_report() -> None:
    # A GP line: "Dr." split the report into "Done, you're booked with Dr." and a read-back, so
    # the caller heard no booking of its goal and asked for it again.
    en, es = caller_language("en"), caller_language("es")
    turn = read_turn("Done, you're booked with Dr. Patel on 2026-12-10 at 10:00. Anything else?", en)
    assert [s.act for s in turn.sentences] == ["outcome", "question"], turn
    assert len(read_turn("Su mesa está reservada a nombre de la Sra. Ruiz. ¿Algo más?", es).sentences) == 2
    assert len(read_turn("No. I can't book that.", en).sentences) == 2  # "no" ends sentences
    facts = {"name": "Maria Lopez", "date": "2026-12-10"}
    caller = _caller("cooperative", "book a routine check-up for my back pain", facts)
    caller.next(None)
    out = caller.next("Done, you're booked with Dr. Patel on 2026-12-10 at 10:00. Anything else?")
    assert out.intent == "goodbye", out


def test_a_russian_hotel_caller_tells_check_in_from_check_out_and_takes_a_booking_offer() -> None:
    # trial4, a Russian hotel line: keys check_in/check_out had no Russian label, so "А какого
    # числа выезжаете?" got the check-in date again, and "Бронируем?" (the usual offer) got a
    # fact instead of "yes": every call of a correct agent ended as a loop or a wrong booking.
    facts = {"name": "Анна Петрова", "check_in": "2026-12-18", "check_out": "2026-12-20"}
    caller = _caller("cooperative", "забронировать номер на две ночи", facts, "ru")
    caller.next(None)
    arrive = caller.next("Гостиница «Нева», меня зовут Ольга. Какого числа вы заезжаете?")
    assert arrive.intent == "give_fact" and "2026-12-18" in arrive.text, arrive
    leave = caller.next("А какого числа выезжаете?")
    assert leave.intent == "give_fact" and "2026-12-20" in leave.text, leave
    caller.next("На чьё имя оформить бронь?")
    offer = caller.next("Номер свободен, 5400 рублей за ночь, штраф за отмену 2700 рублей. Бронируем?")
    assert offer.intent == "confirm", offer


def test_a_current_value_beside_a_question_for_the_new_one_is_no_read_back() -> None:
    # trial3, a parcel line: "Your parcel is currently due on 2026-12-08. Which date would you
    # like the delivery moved to?" got "No — 2026-12-10, not 2026-12-08." — the tool's current
    # date taken for the caller's date read back wrong. Under noise the agent heard the old date
    # whole and the new one as digit words, and booked the old one: a correct agent failed.
    facts = {
        "name": "Emma Clarke",
        "tracking_number": "PX-48213",
        "postcode": "LS6 2QT",
        "date": "2026-12-10",
    }
    caller = _caller("cooperative", "reschedule my parcel delivery to another day", facts)
    caller.next(None)
    out = caller.next(
        "Thank you, you're verified. Your parcel is currently due on 2026-12-08. "
        "Which date would you like the delivery moved to?"
    )
    assert out.intent == "give_fact" and "2026-12-10" in out.text and "2026-12-08" not in out.text, out
    # a read-back of the caller's own date, wrong, is still corrected
    again = _caller("cooperative", "reschedule my parcel delivery to another day", facts)
    again.next(None)
    fixed = again.next("Done — your delivery is rescheduled to 2026-12-11. Anything else?")
    assert fixed.intent == "correct" and "2026-12-10" in fixed.text, fixed
    # a wrong value the agent asks the caller to confirm is still corrected
    asked_back = _caller("cooperative", "reschedule my parcel delivery to another day", facts)
    asked_back.next(None)
    out = asked_back.next("I have 2026-12-11 as the new date. Is that the date you wanted?")
    assert out.intent == "correct", out


def test_a_spanish_first_person_offer_is_an_offer() -> None:
    # trial5's airline line: "¿Confirmo el cambio?" after the new flight and its fare difference
    # was read as a question about nothing held; the caller gave its booking code or restated its
    # goal, the agent offered again, and every correct call ended as a loop (56 of 56).
    es = caller_language("es")
    offer = "Tengo el vuelo IB3421 el 15 de diciembre. La diferencia es de 45 euros. ¿Confirmo el cambio?"
    assert read_turn(offer, es).sentences[-1].act == "offer"
    for asked_so in ("¿Procedo con el cambio?", "Entonces, ¿se lo reservo?", "¿Lo tramito ya?", "confirmo?"):
        assert read_turn(asked_so, es).sentences[-1].act == "offer", asked_so
    assert read_turn("Le confirmo el cambio al vuelo IB3421.", es).sentences[-1].act != "offer"
    caller = _caller("cooperative", "cambiar mi vuelo a otra fecha", {"booking_code": "QX7P2L"}, "es")
    caller.next(None)
    out = caller.next(offer)
    assert out.intent == "confirm", out


def _refusal_caller(goal: str, language: str) -> ScriptedCaller:
    persona = PersonaSnapshot(
        persona_id="p", type="aggressive", outcome="refusal", difficulty=3, goal=goal, facts={}, language=language
    )
    caller = ScriptedCaller(persona, 7)
    caller.next(None)
    return caller


def test_a_refused_refund_refuses_a_money_back_goal() -> None:
    # trial5's airline line: "no puedo hacerle un reembolso" to a caller who came for "que me
    # devuelvan el dinero del billete" shared no stem with the goal, so the caller did not take the
    # refusal, volunteered its name, and a correct agent repeating its refusal ended as a loop.
    es = _refusal_caller("que me devuelvan el dinero del billete", "es")
    out = es.next("Lo siento, su tarifa no es reembolsable, así que no puedo hacerle un reembolso. ¿Algo más?")
    assert out.intent == "refuse" and out.ends_call == "hangup", out
    en = _refusal_caller("get my money back for the ticket", "en")
    out = en.next("I'm afraid your basic fare can't be refunded. Anything else I can do?")
    assert out.intent == "refuse" and out.ends_call == "hangup", out
    # a refusal of something else is still not the goal's
    other = _refusal_caller("get my money back for the ticket", "en")
    out = other.next("I'm afraid I can't change the seat. Anything else I can do?")
    assert out.ends_call != "hangup" or out.intent != "refuse", out


def test_a_wrong_date_read_back_with_its_month_in_words_is_corrected() -> None:
    # trial5's payment-plan line: "the first on 15 November 2026. Shall I set that up?" to a caller
    # whose first payment is 2026-12-15 got "Yes, that works." (only digit dates were compared),
    # and an agent that told the caller one date and booked another passed every call.
    facts = {"name": "Sarah Mills", "first_payment_date": "2026-12-15"}
    caller = _caller("cooperative", "set up a payment plan", facts)
    caller.next(None)
    out = caller.next("So that's 3 monthly payments of £120.00, the first on 15 November 2026. Shall I set that up?")
    assert out.intent == "correct" and "2026-12-15" in out.text, out
    right = _caller("cooperative", "set up a payment plan", facts)
    right.next(None)
    out = right.next("So that's 3 monthly payments of £120.00, the first on 15 December 2026. Shall I set that up?")
    assert out.intent == "confirm", out
    es = _caller("cooperative", "cambiar mi vuelo", {"new_date": "2026-12-15"}, "es")
    es.next(None)
    assert es.next("Tengo el vuelo IB3421 el 16 de diciembre. ¿Confirmo el cambio?").intent == "correct"
    es_right = _caller("cooperative", "cambiar mi vuelo", {"new_date": "2026-12-15"}, "es")
    es_right.next(None)
    assert es_right.next("Tengo el vuelo IB3421 el 15 de diciembre. ¿Confirmo el cambio?").intent == "confirm"


def test_a_fare_said_to_give_no_refund_is_a_refusal() -> None:
    # trial5's airline line: "Su billete no es reembolsable, lo siento." holds no refusal phrase,
    # so a caller who came for its money back did not take it, volunteered its booking code, and
    # a correct agent that said it again ended as a loop.
    for language, goal, said in [
        ("es", "que me devuelvan el dinero del billete", "Su billete no es reembolsable, lo siento. ¿Le ayudo en algo más?"),
        ("es", "pedir un reembolso", "Lo siento, su tarifa Básica no permite reembolsos."),
        ("en", "get a refund for my ticket", "Basic fares aren't refundable. Is there anything else?"),
        ("de", "mein Geld zurück bekommen", "Ihr Ticket ist leider nicht erstattungsfähig."),
        ("ru", "вернуть деньги за билет", "Ваш тариф невозвратный."),
        ("hr", "dobiti povrat novca za kartu", "Vaša karta nije povratna."),
    ]:
        out = _refusal_caller(goal, language).next(said)
        assert out.intent == "refuse" and out.ends_call == "hangup", (language, out)
    en = caller_language("en")
    assert read_turn("Your non-refundable fare can be changed for £45.", en).sentences[0].act != "refusal"
    assert read_turn("Is your ticket not refundable?", en).sentences[0].act != "refusal"
    caller = _caller("cooperative", "change my flight", {"booking_code": "QX7P2L"})
    caller.next(None)
    assert caller.next("Your non-refundable fare can be changed for £45. Shall I change it?").intent == "confirm"


def test_the_last_four_digits_of_an_account_are_not_a_card() -> None:
    # trial5's payment-plan line: asked for "the last four digits of your account number", the
    # caller said "The card ends in 1872."; a phone's last four were said as the whole number.
    for language in ("en", "es", "de", "ru", "hr"):
        caller = _caller("cooperative", "x", {}, language)
        card = caller.phrase("card_last4", "1872")
        assert caller.phrase("account_last4", "1872") != card, language
        assert caller.phrase("account_last4", "1872").endswith("1872.")
        assert caller.phrase("last4", "1872") == card
    en = _caller("cooperative", "x", {})
    assert en.phrase("account_last4", "1872") == "The last four digits are 1872."
    assert en.phrase("phone_last4", "0101") == "The last four digits are 0101."
