// Package conformance runs the conformance suite (docs/conformance.md) through the official OpenAI SDK for Go.
// The gateway's base URL, keys and model list come from the environment; the Node test that runs this
// package sets them.
package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

type conformanceModel struct {
	Family string `json:"family"`
	ID     string `json:"id"`
	Vision bool   `json:"vision"`
}

const short = "[sim:words=4]"
const pixelPNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

var weatherTool = openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
	Name:        "get_weather",
	Description: openai.String("Weather for a city"),
	Parameters: shared.FunctionParameters{
		"type":                 "object",
		"properties":           map[string]any{"city": map[string]any{"type": "string"}},
		"required":             []string{"city"},
		"additionalProperties": false,
	},
})

var required = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("required")}

func environment(t *testing.T, name string) string {
	t.Helper()
	value := os.Getenv(name)
	if value == "" {
		t.Fatalf("%s is not set: run this package through the Node conformance test or set it by hand", name)
	}
	return value
}

func newClient(t *testing.T, key string) openai.Client {
	return openai.NewClient(
		option.WithBaseURL(environment(t, "GATEWAY_BASE_URL")),
		option.WithAPIKey(key),
		option.WithMaxRetries(0),
	)
}

func TestModels(t *testing.T) {
	var models []conformanceModel
	if err := json.Unmarshal([]byte(environment(t, "CONFORMANCE_MODELS")), &models); err != nil {
		t.Fatalf("CONFORMANCE_MODELS: %v", err)
	}
	client := newClient(t, environment(t, "GATEWAY_API_KEY"))
	for _, model := range models {
		t.Run(model.ID, func(t *testing.T) {
			t.Run("text", func(t *testing.T) { text(t, client, model.ID) })
			t.Run("stream", func(t *testing.T) { stream(t, client, model.ID) })
			t.Run("tool_call_then_answer", func(t *testing.T) { toolCall(t, client, model.ID) })
			t.Run("streamed_tool_call_then_answer", func(t *testing.T) { streamedToolCall(t, client, model.ID) })
			t.Run("json_schema", func(t *testing.T) { jsonSchema(t, client, model.ID) })
			if model.Vision {
				t.Run("image_input", func(t *testing.T) { imageInput(t, client, model.ID) })
			}
		})
	}
}

func text(t *testing.T, client openai.Client, model string) {
	completion, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:    model,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.SystemMessage("Be brief."), openai.UserMessage("A river. " + short)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if completion.Model != model || completion.Choices[0].Message.Content == "" || completion.Choices[0].FinishReason != "stop" {
		t.Fatalf("unexpected completion: %s", completion.RawJSON())
	}
	// `cost` is the gateway's extension: the SDK keeps unknown fields in ExtraFields, raw.
	cost, err := strconv.ParseFloat(completion.Usage.JSON.ExtraFields["cost"].Raw(), 64)
	if err != nil || cost <= 0 || completion.Usage.PromptTokens == 0 {
		t.Fatalf("usage without cost: %s", completion.Usage.RawJSON())
	}
}

func stream(t *testing.T, client openai.Client, model string) {
	events := client.Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{
		Model:         model,
		Messages:      []openai.ChatCompletionMessageParamUnion{openai.UserMessage("A sea. " + short)},
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	})
	accumulator := openai.ChatCompletionAccumulator{}
	var last openai.ChatCompletionChunk
	for events.Next() {
		last = events.Current()
		accumulator.AddChunk(last)
		if last.Model != model {
			t.Fatalf("chunk model %q", last.Model)
		}
	}
	if err := events.Err(); err != nil {
		t.Fatal(err)
	}
	if accumulator.Choices[0].Message.Content == "" || len(last.Choices) != 0 || last.Usage.CompletionTokens == 0 {
		t.Fatalf("stream without text or final usage chunk: %s", last.RawJSON())
	}
}

func toolCall(t *testing.T, client openai.Client, model string) {
	question := openai.UserMessage("Weather in Paris?")
	first, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:      model,
		Messages:   []openai.ChatCompletionMessageParamUnion{question},
		Tools:      []openai.ChatCompletionToolUnionParam{weatherTool},
		ToolChoice: required,
	})
	if err != nil {
		t.Fatal(err)
	}
	calls := first.Choices[0].Message.ToolCalls
	if first.Choices[0].FinishReason != "tool_calls" || len(calls) == 0 || calls[0].Function.Name != "get_weather" {
		t.Fatalf("no tool call: %s", first.RawJSON())
	}
	assertCityArguments(t, calls[0].Function.Arguments)
	second, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model: model,
		Messages: []openai.ChatCompletionMessageParamUnion{
			question, first.Choices[0].Message.ToParam(), openai.ToolMessage(`{"c": 21}`, calls[0].ID),
		},
		Tools: []openai.ChatCompletionToolUnionParam{weatherTool},
	})
	if err != nil {
		t.Fatal(err)
	}
	if second.Choices[0].Message.Content == "" {
		t.Fatalf("no answer after the tool result: %s", second.RawJSON())
	}
}

func streamedToolCall(t *testing.T, client openai.Client, model string) {
	question := openai.UserMessage("Weather in Paris?")
	events := client.Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{
		Model:      model,
		Messages:   []openai.ChatCompletionMessageParamUnion{question},
		Tools:      []openai.ChatCompletionToolUnionParam{weatherTool},
		ToolChoice: required,
	})
	accumulator := openai.ChatCompletionAccumulator{}
	deltas := 0
	for events.Next() {
		chunk := events.Current()
		accumulator.AddChunk(chunk)
		for _, choice := range chunk.Choices {
			for _, delta := range choice.Delta.ToolCalls {
				if deltas > 0 && (delta.ID != "" || delta.Function.Name != "") {
					t.Fatalf("id or name repeated after the first delta: %s", chunk.RawJSON())
				}
				deltas++
			}
		}
	}
	if err := events.Err(); err != nil {
		t.Fatal(err)
	}
	calls := accumulator.Choices[0].Message.ToolCalls
	if len(calls) != 1 || calls[0].ID == "" || calls[0].Function.Name != "get_weather" {
		t.Fatalf("accumulated tool calls: %+v", calls)
	}
	assertCityArguments(t, calls[0].Function.Arguments)
	answer := client.Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{
		Model: model,
		Messages: []openai.ChatCompletionMessageParamUnion{
			question, accumulator.Choices[0].Message.ToParam(), openai.ToolMessage(`{"c": 21}`, calls[0].ID),
		},
		Tools: []openai.ChatCompletionToolUnionParam{weatherTool},
	})
	var text strings.Builder
	for answer.Next() {
		for _, choice := range answer.Current().Choices {
			text.WriteString(choice.Delta.Content)
		}
	}
	if err := answer.Err(); err != nil || text.Len() == 0 {
		t.Fatalf("no streamed answer after the tool result (%v)", err)
	}
}

func assertCityArguments(t *testing.T, arguments string) {
	var parsed struct {
		City *string `json:"city"`
	}
	if err := json.Unmarshal([]byte(arguments), &parsed); err != nil || parsed.City == nil {
		t.Fatalf("arguments %q have no city (%v)", arguments, err)
	}
}

func jsonSchema(t *testing.T, client openai.Client, model string) {
	completion, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:    model,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Give me a city.")},
		ResponseFormat: openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
				Name:   "city",
				Strict: openai.Bool(true),
				Schema: map[string]any{
					"type":                 "object",
					"properties":           map[string]any{"name": map[string]any{"type": "string"}, "population": map[string]any{"type": "integer"}},
					"required":             []string{"name", "population"},
					"additionalProperties": false,
				},
			}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var city struct {
		Name       *string `json:"name"`
		Population *int64  `json:"population"`
	}
	content := completion.Choices[0].Message.Content
	if err := json.Unmarshal([]byte(content), &city); err != nil || city.Name == nil || city.Population == nil {
		t.Fatalf("content %q does not match the schema (%v)", content, err)
	}
}

func imageInput(t *testing.T, client openai.Client, model string) {
	completion, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model: model,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage([]openai.ChatCompletionContentPartUnionParam{
			openai.TextContentPart("What is this? " + short),
			openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: pixelPNG}),
		})},
	})
	if err != nil {
		t.Fatal(err)
	}
	if completion.Choices[0].Message.Content == "" {
		t.Fatalf("no answer about the image: %s", completion.RawJSON())
	}
}

func TestErrors(t *testing.T) {
	hello := openai.ChatCompletionNewParams{
		Model:    "gpt-4o",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hello")},
	}
	expectError := func(t *testing.T, key string, params openai.ChatCompletionNewParams, status int) *openai.Error {
		client := newClient(t, key)
		_, err := client.Chat.Completions.New(context.Background(), params)
		var apiError *openai.Error
		if !errors.As(err, &apiError) || apiError.StatusCode != status {
			t.Fatalf("want an API error with status %d, got %v", status, err)
		}
		return apiError
	}
	key := environment(t, "GATEWAY_API_KEY")
	t.Run("bad_key_is_401", func(t *testing.T) { expectError(t, "sk-not-a-real-key", hello, 401) })
	t.Run("unknown_model_is_404", func(t *testing.T) {
		unknown := hello
		unknown.Model = "no-such-model"
		if apiError := expectError(t, key, unknown, 404); apiError.Code != "model_not_found" {
			t.Fatalf("code %q", apiError.Code)
		}
	})
	t.Run("invalid_body_is_400_naming_the_field", func(t *testing.T) {
		invalid := hello
		invalid.Temperature = openai.Float(5)
		if apiError := expectError(t, key, invalid, 400); apiError.Param != "temperature" {
			t.Fatalf("param %q", apiError.Param)
		}
	})
	t.Run("empty_balance_is_402", func(t *testing.T) { expectError(t, environment(t, "GATEWAY_EMPTY_KEY"), hello, 402) })
	t.Run("rate_limit_is_429_with_retry_after", func(t *testing.T) {
		limited := newClient(t, environment(t, "GATEWAY_LIMITED_KEY"))
		for attempt := 0; attempt < 3; attempt++ {
			_, err := limited.Chat.Completions.New(context.Background(), hello)
			var apiError *openai.Error
			if errors.As(err, &apiError) && apiError.StatusCode == 429 {
				if apiError.Response.Header.Get("Retry-After") == "" {
					t.Fatal("429 without Retry-After")
				}
				return
			}
		}
		t.Fatal("three calls on a 2-per-minute key were all served")
	})
	t.Run("models_list_and_retrieve", func(t *testing.T) {
		client := newClient(t, key)
		page, err := client.Models.List(context.Background())
		if err != nil || len(page.Data) == 0 {
			t.Fatalf("model list: %v", err)
		}
		model, err := client.Models.Get(context.Background(), "gpt-4o")
		if err != nil || model.ID != "gpt-4o" {
			t.Fatalf("model gpt-4o: %v", err)
		}
	})
}
