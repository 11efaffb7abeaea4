package llmclient

import (
	"errors"
	"testing"
)

func TestNotConfigured(t *testing.T) {
	env := map[string]string{"PARTHACK_JUDGE_MODEL": "m"} // a model without a server
	cfg := Endpoint("PARTHACK_JUDGE_", "", "", "PARTHACK_JUDGE_API_KEY", func(k string) string { return env[k] })
	if _, err := NewClient(cfg, nil); !errors.Is(err, ErrNotConfigured) {
		t.Errorf("NewClient without a base URL: %v", err)
	}
	if _, err := NewClient(Config{BaseURL: "http://127.0.0.1:1"}, nil); !errors.Is(err, ErrNotConfigured) {
		t.Errorf("NewClient without a model: %v", err)
	}
	if _, err := NewClient(Config{BaseURL: "ftp://host", Model: "m"}, nil); err == nil || errors.Is(err, ErrNotConfigured) {
		t.Errorf("a base URL that is not http(s): %v", err)
	}
}

func TestConfigFallback(t *testing.T) {
	judge := Config{BaseURL: "https://judge.example/v1", Model: "judge-model", APIKey: "judge-key"}
	if got := (Config{Model: "idj-model"}).Or(judge); got.BaseURL != judge.BaseURL || got.APIKey != "judge-key" || got.Model != "idj-model" {
		t.Errorf("same server, own model: %+v", got)
	}
	// A key goes only to the server it was given for.
	if got := (Config{BaseURL: "https://idj.example"}).Or(judge); got.APIKey != "" || got.Model != "judge-model" {
		t.Errorf("own server: %+v", got)
	}
}

// TestEndpoint: a flag wins over the environment, and the API key is read
// only for a named base URL, from the variable named for it.
func TestEndpoint(t *testing.T) {
	env := map[string]string{"P_BASE_URL": "http://env", "P_MODEL": "env-model", "KEY": "secret"}
	getenv := func(k string) string { return env[k] }
	for _, c := range []struct {
		name, base, model string
		env               map[string]string
		want              Config
	}{
		{"environment", "", "", env, Config{BaseURL: "http://env", Model: "env-model", APIKey: "secret"}},
		{"flags win", "http://flag", "flag-model", env, Config{BaseURL: "http://flag", Model: "flag-model", APIKey: "secret"}},
		{"no base URL, no key", "", "m", map[string]string{"KEY": "secret"}, Config{Model: "m"}},
	} {
		env = c.env
		if got := Endpoint("P_", c.base, c.model, "KEY", getenv); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
