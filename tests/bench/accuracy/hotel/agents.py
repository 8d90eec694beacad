"""Hotel Adriana front desk (English): bookings, free cancellation up to 48 hours before arrival."""

from __future__ import annotations

from tests.bench.accuracy.line import NAME, Intent, Line, Slot, factory

LINE = Line(
    greeting="Hotel Adriana, front desk, Nina speaking.",
    ask_need=("How may I help you?", "Sorry — are you calling about a booking, or something else?"),
    slots={
        "name": Slot("Under what name, please?", "Could you spell out the name for me once more?", NAME, "guest"),
        "ref": Slot(
            "What is the booking reference?",
            "Sorry, the booking reference again? Three letters and three digits.",
            r"\b[A-Z]{3}\d{3}\b",
            "booking_ref",
        ),
        "arrival": Slot(
            "On which date will you arrive?", "Sorry, the arrival date again, please?", r"\b\d{4}-\d{2}-\d{2}\b",
            "arrival",
        ),
        "nights": Slot("For how many nights?", "How many nights was that?", r"(?<![-:.])\b\d{1,2}\b(?![-:.]\d)", "nights"),
    },
    intents=(
        Intent(
            "cancel",
            "act",
            ("cancel",),
            slots=("name", "ref"),
            tool="cancel_booking",
            args={"booking_ref": "ref"},
            report="Done — booking {ref} is cancelled and the deposit goes back to your card within five days.",
            verify=True,
        ),
        Intent(
            "book",
            "act",
            ("book a", "reserve", "a room"),
            slots=("name", "arrival", "nights"),
            tool="book_room",
            args={"guest": "name", "arrival": "arrival", "nights": "nights"},
            report="You're booked: a double room from {arrival} for {nights} nights under {name},"
            " reference {result_reference}.",
        ),
        Intent(
            "breakfast",
            "status",
            ("breakfast", "included"),
            slots=("ref",),
            tool="booking_details",
            args={"booking_ref": "ref"},
            report="Yes, breakfast is included in booking {ref}; it is served in the garden restaurant.",
        ),
        Intent("complaint", "transfer", ("complain", "noise", "dirty"), slots=("name",)),
        Intent(
            "late_cancel",
            "refuse",
            ("tonight", "refund"),
            report="I'm afraid I can't refund tonight's stay, because free cancellation ends 48 hours"
            " before arrival.",
        ),
    ),
    verify_tool="verify_booking",
    verify_args={"booking_ref": "ref", "guest": "name"},
    human=("real person", "a person", "human", "manager", "talk to someone", "speak to someone"),
    bye=("bye", "that's all", "thank you", "thanks"),
    anything_else="Is there anything else I can do for you?",
    goodbye="Thank you for calling Hotel Adriana. Goodbye!",
    transfer_tool="transfer_call",
    transferring="I'm putting you through to the duty manager now.",
    take_over="No need for the manager, I can deal with it.",
    noted="I've made a note of it for housekeeping.",
    escalate="Let me get the duty manager.",
    promise="And I promise you an upgrade to a sea-view suite next time, on the house.",
    leak="The guest in room 214, Mira Kos, booked the same dates, her card ends 5521.",
    early_bye="Thanks, that's everything. Goodbye.",
    secrets=("Mira Kos", "room 214"),
    promises=("promise you", "on the house"),
)

make = factory(LINE)
