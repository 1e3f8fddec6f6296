"""The conformance suite through the official OpenAI SDK for Python (docs/conformance.md).

Reads the gateway's base URL, keys and model list from the environment (the Node test that runs this file sets
them); each model gets its own test methods, so the unittest report names the model and scenario that failed.
"""

import json
import os
import unittest
import urllib.parse
import urllib.request

import openai

BASE_URL = os.environ["GATEWAY_BASE_URL"]
KEY = os.environ["GATEWAY_API_KEY"]
EMPTY_KEY = os.environ["GATEWAY_EMPTY_KEY"]
LIMITED_KEY = os.environ["GATEWAY_LIMITED_KEY"]
MODELS = json.loads(os.environ["CONFORMANCE_MODELS"])
# The search simulator the gateway searches (set by the Node test); by hand, citations are checked against the
# sources the gateway lists instead.
SEARCH_URL = os.environ.get("SEARCH_SIMULATOR_URL")

SHORT = "[sim:words=4]"
PIXEL_PNG = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Weather for a city",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
                "additionalProperties": False,
            },
        },
    }
]
QUESTION = {"role": "user", "content": "Weather in Paris?"}
# Responses API tools are flat (no nested "function"); an emoji and a non-BMP letter come before later citations.
RESPONSES_TOOLS = [
    {
        "type": "function",
        "name": "get_weather",
        "description": "Weather for a city",
        "parameters": TOOLS[0]["function"]["parameters"],
        "strict": True,
    }
]
SEARCH_QUESTION = "Почему бывают приливы 🌊 и отливы 𠀋? Explain."
SOURCES = ["web_search_call.action.sources"]
CITY_SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "population": {"type": "integer"}},
    "required": ["name", "population"],
    "additionalProperties": False,
}


def client_with(key):
    return openai.OpenAI(api_key=key, base_url=BASE_URL, max_retries=0)


CLIENT = client_with(KEY)


class ModelScenarios:
    """Scenarios run once per model; `model` is set on each generated class."""

    model = None

    def test_text(self):
        response = CLIENT.chat.completions.create(
            model=self.model["id"],
            messages=[{"role": "system", "content": "Be brief."}, {"role": "user", "content": f"A river. {SHORT}"}],
        )
        self.assertEqual(response.model, self.model["id"])
        self.assertTrue(response.choices[0].message.content)
        self.assertEqual(response.choices[0].finish_reason, "stop")
        self.assertGreater(response.usage.prompt_tokens, 0)
        self.assertIsInstance(response.usage.model_extra.get("cost"), float)

    def test_stream(self):
        stream = CLIENT.chat.completions.create(
            model=self.model["id"],
            stream=True,
            stream_options={"include_usage": True},
            messages=[{"role": "user", "content": f"A sea. {SHORT}"}],
        )
        chunks = list(stream)
        self.assertTrue(all(chunk.model == self.model["id"] for chunk in chunks))
        self.assertTrue("".join(c.choices[0].delta.content or "" for c in chunks if c.choices))
        self.assertEqual(chunks[-1].choices, [])
        self.assertGreater(chunks[-1].usage.completion_tokens, 0)

    def test_tool_call_then_answer(self):
        first = CLIENT.chat.completions.create(
            model=self.model["id"], tools=TOOLS, tool_choice="required", messages=[QUESTION]
        )
        self.assertEqual(first.choices[0].finish_reason, "tool_calls")
        call = first.choices[0].message.tool_calls[0]
        self.assertEqual(call.function.name, "get_weather")
        self.assertIsInstance(json.loads(call.function.arguments)["city"], str)
        second = CLIENT.chat.completions.create(
            model=self.model["id"],
            tools=TOOLS,
            messages=[
                QUESTION,
                first.choices[0].message.model_dump(exclude_none=True),
                {"role": "tool", "tool_call_id": call.id, "content": '{"c": 21}'},
            ],
        )
        self.assertTrue(second.choices[0].message.content)

    def test_streamed_tool_call_then_answer(self):
        stream = CLIENT.chat.completions.create(
            model=self.model["id"], tools=TOOLS, tool_choice="required", stream=True, messages=[QUESTION]
        )
        deltas = [d for chunk in stream if chunk.choices for d in (chunk.choices[0].delta.tool_calls or [])]
        self.assertTrue(deltas[0].id)
        self.assertEqual(deltas[0].function.name, "get_weather")
        self.assertTrue(all(d.id is None and (d.function is None or d.function.name is None) for d in deltas[1:]))
        arguments = "".join((d.function.arguments or "") if d.function else "" for d in deltas)
        self.assertIsInstance(json.loads(arguments)["city"], str)
        call = {"id": deltas[0].id, "type": "function", "function": {"name": "get_weather", "arguments": arguments}}
        answer = CLIENT.chat.completions.create(
            model=self.model["id"],
            tools=TOOLS,
            stream=True,
            messages=[
                QUESTION,
                {"role": "assistant", "content": None, "tool_calls": [call]},
                {"role": "tool", "tool_call_id": call["id"], "content": '{"c": 21}'},
            ],
        )
        self.assertTrue("".join(c.choices[0].delta.content or "" for c in answer if c.choices))

    def test_json_schema(self):
        response = CLIENT.chat.completions.create(
            model=self.model["id"],
            messages=[{"role": "user", "content": "Give me a city."}],
            response_format={
                "type": "json_schema",
                "json_schema": {"name": "city", "strict": True, "schema": CITY_SCHEMA},
            },
        )
        city = json.loads(response.choices[0].message.content)
        self.assertIsInstance(city["name"], str)
        self.assertIsInstance(city["population"], int)


def search_result_urls(query):
    """The URLs the search simulator's SearXNG API answers for a query: the only pages a citation may point at."""
    url = f"{SEARCH_URL}/searxng/search?format=json&q={urllib.parse.quote(query)}"
    with urllib.request.urlopen(url) as answer:
        return {result["url"] for result in json.load(answer)["results"]}


class ResponsesScenarios:
    """The Responses API: text with instructions, a function round trip, web search whole and streamed."""

    model = None

    def test_responses_text_with_instructions(self):
        response = CLIENT.responses.create(model=self.model["id"], instructions="Be brief.", input=f"A river. {SHORT}")
        self.assertEqual(response.model, self.model["id"])
        self.assertEqual(response.instructions, "Be brief.")
        self.assertTrue(response.output_text)
        self.assertIsInstance(response.usage.model_extra.get("cost"), float)

    def test_responses_function_round_trip(self):
        question = [{"role": "user", "content": "Weather in Paris?"}]
        first = CLIENT.responses.create(
            model=self.model["id"], input=question, tools=RESPONSES_TOOLS, tool_choice="required"
        )
        call = next(item for item in first.output if item.type == "function_call")
        self.assertEqual(call.name, "get_weather")
        self.assertIsInstance(json.loads(call.arguments)["city"], str)
        second = CLIENT.responses.create(
            model=self.model["id"],
            tools=RESPONSES_TOOLS,
            input=[
                *question,
                *(item.model_dump(exclude_none=True) for item in first.output),
                {"type": "function_call_output", "call_id": call.call_id, "output": '{"c": 21}'},
            ],
        )
        self.assertTrue(second.output_text)

    def test_responses_web_search(self):
        response = CLIENT.responses.create(
            model=self.model["id"], input=SEARCH_QUESTION, tools=[{"type": "web_search"}], include=SOURCES
        )
        self.check_search_answer(response)

    def test_responses_web_search_streamed(self):
        with CLIENT.responses.stream(
            model=self.model["id"], input=SEARCH_QUESTION, tools=[{"type": "web_search"}], include=SOURCES
        ) as stream:
            types = [event.type for event in stream]
            final = stream.get_final_response()
        self.assertEqual(types[0], "response.created")
        self.assertEqual(types[-1], "response.completed")
        self.assertIn("response.output_text.annotation.added", types)
        self.check_search_answer(final)

    def check_search_answer(self, response):
        """Citations only on pages the engine returned; Python's own slicing of the offsets gives whole words."""
        self.assertEqual(response.status, "completed")
        searches = [item for item in response.output if item.type == "web_search_call"]
        self.assertTrue(searches, "a web_search_call records the search")
        urls = {source.url for item in searches for source in item.action.sources or []}
        if SEARCH_URL:
            urls &= set().union(*(search_result_urls(item.action.query) for item in searches))
        citations = 0
        for item in response.output:
            for part in item.content if item.type == "message" else []:
                for annotation in part.annotations if part.type == "output_text" else []:
                    self.assertIn(annotation.url, urls)
                    cited = part.text[annotation.start_index : annotation.end_index]
                    self.assertTrue(cited and cited == cited.strip(), repr(cited))
                    before = part.text[annotation.start_index - 1] if annotation.start_index > 0 else " "
                    after = part.text[annotation.end_index : annotation.end_index + 1] or " "
                    self.assertTrue(before.isspace(), f"{cited!r} starts at a word's start")
                    self.assertTrue(after.isspace() or after in ".!?,;:", f"{cited!r} ends at a word's end")
                    citations += 1
        self.assertGreater(citations, 0, "the answer cites its sources")


class ImageScenario:
    """Run only for models the catalogue marks as accepting images."""

    model = None

    def test_image_input(self):
        response = CLIENT.chat.completions.create(
            model=self.model["id"],
            messages=[
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": f"What is this? {SHORT}"},
                        {"type": "image_url", "image_url": {"url": PIXEL_PNG}},
                    ],
                }
            ],
        )
        self.assertTrue(response.choices[0].message.content)


for _model in MODELS:
    _name = "Test_" + "".join(ch if ch.isalnum() else "_" for ch in _model["id"])
    _bases = (ModelScenarios, ResponsesScenarios) + ((ImageScenario,) if _model["vision"] else ())
    globals()[_name] = type(_name, (*_bases, unittest.TestCase), {"model": _model})


class TestErrors(unittest.TestCase):
    HELLO = {"model": "gpt-4o", "messages": [{"role": "user", "content": "Hello"}]}

    def test_bad_key_is_401(self):
        with self.assertRaises(openai.AuthenticationError):
            client_with("sk-not-a-real-key").chat.completions.create(**self.HELLO)

    def test_unknown_model_is_404(self):
        with self.assertRaises(openai.NotFoundError) as caught:
            CLIENT.chat.completions.create(**{**self.HELLO, "model": "no-such-model"})
        self.assertEqual(caught.exception.code, "model_not_found")

    def test_invalid_body_is_400_naming_the_field(self):
        with self.assertRaises(openai.BadRequestError) as caught:
            CLIENT.chat.completions.create(**self.HELLO, temperature=5)
        self.assertEqual(caught.exception.param, "temperature")

    def test_empty_balance_is_402(self):
        with self.assertRaises(openai.APIStatusError) as caught:
            client_with(EMPTY_KEY).chat.completions.create(**self.HELLO)
        self.assertEqual(caught.exception.status_code, 402)

    def test_rate_limit_is_429_with_retry_after(self):
        limited = client_with(LIMITED_KEY)
        with self.assertRaises(openai.RateLimitError) as caught:
            for _ in range(3):
                limited.chat.completions.create(**self.HELLO)
        self.assertTrue(caught.exception.response.headers.get("retry-after"))

    def test_models_list_and_retrieve(self):
        self.assertIn("gpt-4o", [model.id for model in CLIENT.models.list()])
        self.assertEqual(CLIENT.models.retrieve("gpt-4o").id, "gpt-4o")


if __name__ == "__main__":
    unittest.main(verbosity=2)
