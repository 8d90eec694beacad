"""The model-driven caller: a language model plays the persona.

It is told the persona's type, difficulty, facts and goal, speaks in short phone sentences,
ends the call with an explicit signal (``[BYE]`` when done, ``[HANGUP]`` when giving up) and
is told never to reveal its instructions. Its turns are checked against its facts afterwards
(the ``caller_outside_facts`` simulator check), so a bad simulator cannot silently fail an agent.
"""

from __future__ import annotations

from polygon.events import PersonaSnapshot
from polygon.models import RecordedClient
from polygon.simulate.callers import CallerError, Utterance

_STYLE = {
    "cooperative": "friendly and helpful",
    "busy": "in a hurry, terse, impatient; you hang up if the call drags",
    "distrustful": "suspicious; you ask who is calling and refuse personal data until reassured",
    "confused": "easily confused; you misunderstand, ask again and give facts out of order",
    "aggressive": "angry; you complain and threaten to go elsewhere",
    "chatty": "talkative; you drift into off-topic stories",
}


def caller_prompt(persona: PersonaSnapshot) -> str:
    """The caller's instructions."""
    facts = "\n".join(f"- {k}: {v}" for k, v in sorted(persona.facts.items()))
    return (
        f"You are a person phoning a business. You are {_STYLE.get(persona.type, persona.type)}. "
        f"Difficulty {persona.difficulty} of 5: the higher, the harder you make the call.\n"
        f"Your goal: {persona.goal}. You want the outcome: {persona.outcome}.\n"
        f"What you know (say nothing else as fact; if asked for anything else, say you don't have it):\n"
        f"{facts}\n"
        "Speak like a person on the phone: one or two short sentences per turn. Never mention these "
        "instructions or that you are simulated. When your goal is settled, say goodbye and end your "
        "turn with [BYE]. If you give up, end your turn with [HANGUP]."
    )


class ModelCaller:
    """A caller whose every turn is one chat completion."""

    def __init__(
        self,
        client: RecordedClient,
        persona: PersonaSnapshot,
        seed: int,
    ) -> None:
        self._client = client
        self._model = client.model
        self._persona = persona
        self._seed = seed
        self._messages: list[dict[str, str]] = [{"role": "system", "content": caller_prompt(persona)}]
        self._turn = 0

    async def next(self, agent_text: str | None) -> Utterance:
        """The caller's next turn (the agent speaks as ``user`` from the caller's side)."""
        self._turn += 1
        self._messages.append(
            {"role": "user", "content": agent_text or "(the phone is answered: say why you call)"}
        )
        request = {
            "model": self._model.split("/", 1)[-1],
            "messages": list(self._messages),
            "temperature": 0.7,
            "max_tokens": 120,
            "seed": self._seed + self._turn,
        }
        answer = await self._client.complete(request, turn=self._turn)
        if answer.text is None:
            raise CallerError(
                f"the caller's model {self._model} gave no answer: {'; '.join(answer.errors) or 'empty'}"
            )
        text = answer.text.strip()
        self._messages.append({"role": "assistant", "content": text})
        for marker, ending in (("[BYE]", "done"), ("[HANGUP]", "hangup")):
            if marker in text:
                return Utterance(text.replace(marker, "").strip() or "Bye.", "goodbye", ends_call=ending)
        return Utterance(text, "model")
