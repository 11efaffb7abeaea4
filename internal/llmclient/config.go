package llmclient

import (
	"fmt"
	"net/url"
	"time"
)

// The frozen decoding configuration of the paper (A.4): temperature 0, a
// 4,096-token answer and 600 seconds per request.
const (
	DefaultMaxTokens = 4096
	DefaultTimeout   = 600 * time.Second
)

// Config is one endpoint: an OpenAI-compatible chat-completions server
// and the model to ask. Requests go to BaseURL + "/chat/completions",
// the path DeepSeek, Gemini's OpenAI-compatible endpoint, vLLM, Ollama
// and llama.cpp's server share.
type Config struct {
	BaseURL   string        // e.g. https://api.deepseek.com or http://127.0.0.1:11434/v1
	Model     string        // the model name the server knows
	APIKey    string        // sent as a bearer token; empty sends none (local servers)
	MaxTokens int           // answer token cap; 0 means DefaultMaxTokens
	Timeout   time.Duration // per request; 0 means DefaultTimeout
	// NoResponseFormat leaves response_format out of the request, for a
	// server that rejects it. The answer is validated the same either way.
	NoResponseFormat bool
}

// Endpoint is the one place an endpoint is set up, for the judges and
// the attacker alike: baseURL and model when given (a command's flags),
// else prefix+"BASE_URL" and prefix+"MODEL" (prefix is the judge's, IDJ's
// or the attacker's: llm.JudgeEnv, llm.IDJEnv, llmattack.Env) read with getenv, usually os.Getenv. The API key is
// only ever read from the environment variable keyEnv, so it never shows
// in a process list, and only for a named base URL: a key is never sent
// to another server than the one it was given for (see Or).
func Endpoint(prefix, baseURL, model, keyEnv string, getenv func(string) string) Config {
	c := Config{BaseURL: baseURL, Model: model}
	if c.BaseURL == "" {
		c.BaseURL = getenv(prefix + "BASE_URL")
	}
	if c.Model == "" {
		c.Model = getenv(prefix + "MODEL")
	}
	if c.BaseURL != "" {
		c.APIKey = getenv(keyEnv)
	}
	return c
}

// Or fills what c leaves empty from fallback: IDJ's endpoint falls back
// to the judge's. The API key comes with the base URL it belongs to, so
// a key is never sent to another server than the one it was given for.
func (c Config) Or(fallback Config) Config {
	if c.BaseURL == "" {
		c.BaseURL, c.APIKey = fallback.BaseURL, fallback.APIKey
	}
	if c.Model == "" {
		c.Model = fallback.Model
	}
	return c
}

// Configured reports whether c names a server and a model.
func (c Config) Configured() bool { return c.BaseURL != "" && c.Model != "" }

func (c Config) maxTokens() int {
	if c.MaxTokens > 0 {
		return c.MaxTokens
	}
	return DefaultMaxTokens
}

func (c Config) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

// endpoint is the chat-completions URL of c.
func (c Config) endpoint() (string, error) {
	u, err := url.Parse(c.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("judge base URL %q is not an http(s) URL", c.BaseURL)
	}
	return u.JoinPath("chat/completions").String(), nil
}
