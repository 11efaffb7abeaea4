package report

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestLedgerRoundTrip(t *testing.T) {
	l, err := ReadFile(testdata("ledger.json"))
	if err != nil {
		t.Fatal(err)
	}
	var js, cs bytes.Buffer
	if err := WriteJSON(&js, l); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSV(&cs, l); err != nil {
		t.Fatal(err)
	}
	fromJSON, err := Read("x.json", js.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	fromCSV, err := Read("x.csv", cs.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromJSON, l) || !reflect.DeepEqual(fromCSV, l) {
		t.Errorf("the ledger does not survive a round trip through JSON and CSV")
	}
	// Without a telling extension the first byte decides.
	for _, src := range [][]byte{js.Bytes(), cs.Bytes()} {
		if got, err := Read("ledger", src); err != nil || !reflect.DeepEqual(got, l) {
			t.Errorf("sniffed read: %v", err)
		}
	}
	// The stored ledger is in the writer's own form.
	src, err := os.ReadFile(testdata("ledger.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, js.Bytes()) {
		t.Errorf("testdata/report/ledger.json is not what WriteJSON writes for it")
	}
	golden(t, "ledger.csv", cs.String())
}

const csvHead = "target,set,task,matched,delta,honest_score,p_state_h,rollback_score,p_state_r,attempts,valid\n"

// csvHeadCapped is csvHead with the capped column.
const csvHeadCapped = "target,set,task,matched,delta,honest_score,p_state_h,rollback_score,p_state_r,attempts,valid,capped\n"

// csvHeadErr is csvHead with the error column.
const csvHeadErr = "target,set,task,matched,delta,honest_score,p_state_h,rollback_score,p_state_r,attempts,valid,error\n"

func TestReadCSVErrors(t *testing.T) {
	ok := "csps,shared,PH-H04,true,0,0.4,0.4,0.2,0.2,3,2\n"
	cases := []struct {
		name, src, want string
	}{
		{"empty file", "", "ledger.csv: empty file"},
		{"no rows", csvHead, "ledger.csv: the ledger has no rows"},
		{"unknown column", "target,set,task,matched,delta,honest_score,p_state_h,attempts,valid,vibes\n", `ledger.csv:1: column 10: unknown column "vibes"`},
		{"repeated column", "target,target\n", `ledger.csv:1: column 2: "target" repeats column 1`},
		{"missing column", "target,set,task,matched,delta,honest_score,attempts,valid\n", `ledger.csv:1: missing required column "p_state_h"`},
		{"bad number", csvHead + ok + "csps,shared,PH-H07,true,abc,0.5,0.5,,,3,1\n", `ledger.csv:3: row 2, column "delta": want a number, got "abc"`},
		{"NaN", csvHead + "csps,shared,PH-H07,true,0,NaN,0.5,,,3,1\n", `ledger.csv:2: row 1, column "honest_score": want a number, got "NaN"`},
		{"bad bool", csvHead + "csps,shared,PH-H07,yes,0,0.5,0.5,,,3,1\n", `ledger.csv:2: row 1, column "matched": want true or false, got "yes"`},
		{"bad integer", csvHead + "csps,shared,PH-H07,true,0,0.5,0.5,,,3.0,1\n", `ledger.csv:2: row 1, column "attempts": want a non-negative integer, got "3.0"`},
		{"negative integer", csvHead + "csps,shared,PH-H07,true,0,0.5,0.5,,,-3,1\n", `column "attempts": want a non-negative integer, got "-3"`},
		{"empty required number", csvHead + "csps,shared,PH-H07,true,0,0.5,,,,3,1\n", `ledger.csv:2: row 1, column "p_state_h": empty`},
		{"no f(H) without an error", csvHead + "csps,shared,PH-H07,false,,,0.5,,,3,1\n", `ledger.csv:2: row 1, column "honest_score": absent (only a row whose error says why`},
		{"no f(R) without an error", csvHead + "csps,shared,PH-H07,false,,0.5,0.5,,0.25,3,1\n", `row 1, column "rollback_score": missing while p_state_r is given`},
		{"error on a full row", strings.Replace(csvHeadErr, ",error", ",attack_end,error", 1) + "llm_judge,shared,PH-H07,true,0,0.5,0.5,0.5,0.25,3,1,gold,boom\n", `ledger.csv:2: row 1, column "error": given on a row with every score and attack_end`},
		{"delta without f(H)", csvHeadErr + "llm_judge,shared,PH-H07,true,0.1,,0.5,,,3,1,H: no answer\n", `row 1, column "delta": given without honest_score`},
		{"empty required string", csvHead + "csps,shared,,true,0,0.5,0.5,,,3,1\n", `ledger.csv:2: row 1, column "task": must not be empty`},
		{"bad set", csvHead + "csps,both,PH-H07,true,0,0.5,0.5,,,3,1\n", `column "set": "both" is neither "shared" nor "targeted"`},
		{"delta unmatched", csvHead + "csps,shared,PH-H07,false,0,0.5,0.5,,,3,1\n", `row 1, column "delta": given on an unmatched row`},
		{"no delta matched", csvHead + "csps,shared,PH-H07,true,,0.5,0.5,,,3,1\n", `row 1, column "delta": missing on a matched row`},
		{"score out of range", csvHead + "csps,shared,PH-H07,true,0,1.5,0.5,,,3,1\n", `column "honest_score": 1.5 is outside [0, 1]`},
		{"f(A) out of range", csvHead + "csps,shared,PH-H07,true,0.6,0.5,0.5,,,3,1\n", `column "delta": 0.6 puts f(A)`},
		{"rollback alone", csvHead + "csps,shared,PH-H07,true,0,0.5,0.5,0.4,,3,1\n", `column "p_state_r": missing while rollback_score is given`},
		{"valid above attempts", csvHead + "csps,shared,PH-H07,true,0,0.5,0.5,,,3,4\n", `column "valid": 4 is outside [0, attempts = 3]`},
		{"matched with no valid", csvHead + "csps,shared,PH-H07,true,0,0.5,0.5,,,3,0\n", `column "valid": 0 on a matched row`},
		{"repeated row", csvHead + ok + ok, `ledger.csv:3: row 2: repeats row 1 (set shared, target csps, task PH-H04)`},
		{"invalid UTF-8", csvHead + "csps,shared,PH-H07\xfe,true,0,0.5,0.5,,,3,1\n", `ledger.csv:2:19: invalid UTF-8: byte 0xFE`},
		{"short record", csvHead + "csps,shared\n", `ledger.csv: record on line 2: wrong number of fields`},
		{"capped false", csvHeadCapped + "csps,shared,PH-H07,true,0,0.5,0.5,,,3,1,false\n", `ledger.csv:2: row 1, column "capped": must not be false (leave it out)`},
		{"capped not a bool", csvHeadCapped + "csps,shared,PH-H07,true,0,0.5,0.5,,,3,1,yes\n", `ledger.csv:2: row 1, column "capped": want true or false, got "yes"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadCSV("ledger.csv", []byte(c.src))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestReadJSONErrors(t *testing.T) {
	row := `{"target": "csps", "set": "shared", "task": "PH-H04", "matched": true, "delta": 0, "honest_score": 0.4, "p_state_h": 0.4, "attempts": 3, "valid": 2}`
	doc := func(rows ...string) string {
		return "{\n  \"format\": \"parthack-ledger/1\",\n  \"rows\": [\n    " + strings.Join(rows, ",\n    ") + "\n  ]\n}\n"
	}
	with := func(old, new string) string { return strings.Replace(row, old, new, 1) }
	cases := []struct {
		name, src, want string
	}{
		{"not an object", "[]", "ledger.json:1: "},
		{"syntax", "{\n  \"format\": ,\n}", "ledger.json:2:13: $.format: malformed JSON: invalid character"},
		{"truncated", "{\"format\": \"parthack-ledger/1\", \"rows\": [", "ledger.json:1:42: $.rows: malformed JSON: unexpected end of input"},
		{"wrong format", strings.Replace(doc(row), "ledger/1", "ledger/2", 1), `ledger.json:2: field "format": "parthack-ledger/2" is not "parthack-ledger/1"`},
		{"unknown top field", "{\"format\": \"parthack-ledger/1\",\n \"meta\": 1, \"rows\": []}", `ledger.json:2: unknown field "meta"`},
		{"missing rows", "{\"format\": \"parthack-ledger/1\"}", `ledger.json:1: missing field "rows"`},
		{"no rows", doc(), "ledger.json: the ledger has no rows"},
		{"trailing data", doc(row) + "{}", "ledger.json:7:2: $: unexpected data after the top-level value"},
		{"byte order mark", "\xef\xbb\xbf" + doc(row), "ledger.json:1:1: $: the file starts with a UTF-8 byte order mark"},
		{"invalid UTF-8", doc(with(`"valid": 2`, "\"valid\": 2, \"note\": \"\xff\"")), "invalid UTF-8: byte 0xFF"},
		{"row not an object", doc("3"), "ledger.json:4: row 1: want an object"},
		{"unknown row field", doc(row, with(`"valid": 2`, `"valid": 2,`+"\n"+`"vibes": 1`)), `ledger.json:6: row 2: unknown field "vibes"`},
		{"repeated row field", doc(with(`"valid": 2`, `"valid": 2, "valid": 2`)), `ledger.json:4:154: $.rows[0].valid: duplicate key "valid"`},
		{"missing row field", doc(with(`, "attempts": 3`, "")), `ledger.json:4: row 1: field "attempts": missing`},
		{"null required", doc(with(`"p_state_h": 0.4`, `"p_state_h": null`)), `row 1: field "p_state_h": must not be null`},
		{"null f(H) without an error", doc(with(`"delta": 0, "honest_score": 0.4`, `"delta": null, "honest_score": null`)), `row 1: field "honest_score": absent (only a row whose error says why`},
		{"no f(H) field", doc(with(`"honest_score": 0.4, `, ``)), `row 1: field "honest_score": missing`},
		{"empty error", doc(with(`"valid": 2`, `"valid": 2, "error": ""`)), `row 1: field "error": must not be empty (leave it out)`},
		{"error on a full row", doc(with(`"valid": 2`, `"valid": 2, "attack_end": "other", "error": "boom"`)), `row 1: field "error": given on a row with every score and attack_end`},
		{"error on a full row with a rise", doc(strings.Replace(with(`"valid": 2`, `"valid": 2, "same_end_state": true, "attack_end": "same", "rise": "failed_call", "error": "boom"`), `"delta": 0,`, `"delta": 0.5,`, 1)), `row 1: field "error": given on a row with every score and attack_end`},
		{"error not a string", doc(with(`"valid": 2`, `"valid": 2, "error": 1`)), `row 1: field "error": want a string, got 1`},
		{"string for number", doc(with(`"delta": 0`, `"delta": "0"`)), `row 1: field "delta": want a number, got "0"`},
		{"number for string", doc(with(`"task": "PH-H04"`, `"task": 4`)), `row 1: field "task": want a string, got 4`},
		{"fractional integer", doc(with(`"attempts": 3`, `"attempts": 2.5`)), `row 1: field "attempts": want a non-negative integer, got 2.5`},
		{"field on its own line", doc(row, with(`"valid": 2`, "\n\"valid\": 9")), `ledger.json:6: row 2: field "valid": 9 is outside [0, attempts = 3]`},
		{"repeated row", doc(row, row), `ledger.json:5: row 2: repeats row 1`},
		{"capped false", doc(with(`"valid": 2`, `"valid": 2, "capped": false`)), `row 1: field "capped": must not be false (leave it out)`},
		{"capped not a bool", doc(with(`"valid": 2`, `"valid": 2, "capped": "true"`)), `row 1: field "capped": want true or false, got "true"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadJSON("ledger.json", []byte(c.src))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want it to contain %q", err, c.want)
			}
		})
	}
	if _, err := ReadJSON("ledger.json", []byte(doc(row, strings.Replace(row, "PH-H04", "PH-H07", 1)))); err != nil {
		t.Errorf("a good ledger: %v", err)
	}
}

func TestWriteNeedsAnExtension(t *testing.T) {
	if err := Write(&bytes.Buffer{}, "ledger.txt", &Ledger{}); err == nil || !strings.Contains(err.Error(), ".json or .csv") {
		t.Errorf("Write to ledger.txt: %v", err)
	}
}
