package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// instructionLines lays out a task's instruction in lines of at most w
// cells. Plain text is wrapped. An instruction that is a JSON object (a
// tau2 task's user scenario) is laid out as tau2 shows it to its user
// simulator: each member under its name in words ("reason_for_call" as
// "Reason for call:"), objects nested, null members left out, in the
// file's order; other JSON values are shown compact.
func instructionLines(text string, w int) []string {
	trimmed := strings.TrimSpace(text)
	if !strings.HasPrefix(trimmed, "{") || !json.Valid([]byte(trimmed)) {
		return wrap(text, w)
	}
	dec := json.NewDecoder(strings.NewReader(trimmed))
	dec.UseNumber()
	var lines []string
	if err := layoutObject(dec, "", w, &lines); err != nil {
		return wrap(text, w)
	}
	return lines
}

// layoutObject reads an object whose opening brace is next in dec and
// appends its members, indented by indent.
func layoutObject(dec *json.Decoder, indent string, w int, lines *[]string) error {
	if _, err := dec.Token(); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		name, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		label := indent + memberLabel(name) + ":"
		switch v := bytes.TrimSpace(raw); {
		case string(v) == "null":
		case v[0] == '{':
			*lines = append(*lines, label)
			if err := layoutObject(json.NewDecoder(bytes.NewReader(v)), indent+"  ", w, lines); err != nil {
				return err
			}
		default:
			value := string(v)
			var s string
			if v[0] == '"' && json.Unmarshal(v, &s) == nil {
				value = s
			} else {
				var b bytes.Buffer
				if json.Compact(&b, v) == nil {
					value = b.String()
				}
			}
			// A short value stays beside its name, as tau2's "Domain: retail".
			if one := label + " " + value; !strings.Contains(value, "\n") && ansi.StringWidth(one) <= w {
				*lines = append(*lines, one)
				continue
			}
			*lines = append(*lines, label)
			for _, para := range strings.Split(value, "\n") {
				for _, l := range wrap(para, max(w-len(indent)-2, 10)) {
					*lines = append(*lines, indent+"  "+l)
				}
			}
		}
	}
	_, err := dec.Token()
	return err
}

// memberLabel is a member's name in words: "known_info" is "Known info".
func memberLabel(name string) string {
	words := strings.ReplaceAll(name, "_", " ")
	if words == "" {
		return fmt.Sprintf("%q", name)
	}
	return strings.ToUpper(words[:1]) + words[1:]
}
