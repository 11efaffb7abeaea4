package tui

import "github.com/charmbracelet/bubbles/key"

// keyMap holds every key binding of the workbench with its help text.
// Screens pick the bindings that apply to their focused pane for the
// help bar, so the footer never lists a key that does nothing.
type keyMap struct {
	Quit, ForceQuit, Suspend, Help, Back, Tab key.Binding
	TaskInfo, Refresh                         key.Binding

	// Moving through a log or a list.
	Up, Down, StepPrev, StepNext, ScrollUp, ScrollDown key.Binding
	First, Last, PageUp, PageDown                      key.Binding
	Search, NextMatch, PrevMatch                       key.Binding

	// Browse: arrows only, letters go to the filter.
	ListUp, ListDown, Filter,
	Open, Import, ClearFilter, DeleteRecord key.Binding

	// Inspector and compare.
	Switch, MarkHonest, Compare, Rollback, EditWitness, Annotate, Evidence, WholeState key.Binding
	OpenEvent, StateDiff, FullTurns, Collateral, Checks                                key.Binding

	// Witness editor.
	Add, Insert, EditStep, DeleteStep, MoveUp, MoveDown key.Binding
	Undo, Redo, Save, Export, Mode, UndoStep            key.Binding
	Line, Complete                                      key.Binding

	// Forms and prompts.
	FieldNext, FieldPrev, PickNext, PickPrev, Submit, Cancel key.Binding

	// Search attacker: start it, stop it, set it up, use its result.
	Attack, AttackCancel, ValueNext, ValuePrev, StartSearch key.Binding
	ShowCompare, ShowEditor, Dismiss                        key.Binding

	// Demo.
	Advance, Rewind key.Binding
}

func newKeyMap() *keyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return &keyMap{
		Quit:      b([]string{"q"}, "q", "quit"),
		ForceQuit: b([]string{"ctrl+c"}, "ctrl+c", "cancel the prompt, else quit"),
		// As in a shell: ctrl+z suspends, fg resumes. Undo is u.
		Suspend:  b([]string{"ctrl+z"}, "ctrl+z", "suspend (fg resumes)"),
		Help:     b([]string{"?"}, "?", "all keys"),
		TaskInfo: b([]string{"I"}, "I", "the task in full"),
		Refresh:  b([]string{"ctrl+l"}, "ctrl+l", "reload saved work"),
		Back:     b([]string{"esc"}, "esc", "back"),
		Tab:      b([]string{"tab", "shift+tab"}, "tab", "focus"),

		Up:         b([]string{"up", "k"}, "↑/k", "up"),
		Down:       b([]string{"down", "j"}, "↓/j", "down"),
		StepPrev:   b([]string{"h", "left"}, "h/←", "prev step"),
		StepNext:   b([]string{"l", "right"}, "l/→", "next step"),
		ScrollUp:   b([]string{"k", "up"}, "k/↑", "scroll up"),
		ScrollDown: b([]string{"j", "down"}, "j/↓", "scroll down"),
		First:      b([]string{"0", "home", "g"}, "0", "first"),
		Last:       b([]string{"$", "end", "G"}, "$", "last"),
		PageUp:     b([]string{"pgup", "ctrl+b"}, "pgup", "page up"),
		PageDown:   b([]string{"pgdown", "ctrl+f"}, "pgdn", "page down"),
		Search:     b([]string{"/"}, "/", "search"),
		NextMatch:  b([]string{"n"}, "n", "next match"),
		PrevMatch:  b([]string{"N"}, "N", "prev match"),

		ListUp:       b([]string{"up", "k"}, "↑/k", "up"),
		ListDown:     b([]string{"down", "j"}, "↓/j", "down"),
		Filter:       b([]string{"/"}, "/", "filter"),
		Open:         b([]string{"enter"}, "enter", "open"),
		Import:       b([]string{"ctrl+o"}, "ctrl+o", "import witness JSON"),
		ClearFilter:  b([]string{"esc"}, "esc", "clear filter"),
		DeleteRecord: b([]string{"ctrl+d", "delete"}, "del", "delete record (asks)"),

		Switch:      b([]string{"t"}, "t", "next trajectory of the task"),
		MarkHonest:  b([]string{"H"}, "H", "make this run H"),
		Compare:     b([]string{"c"}, "c", "compare H vs A"),
		Rollback:    b([]string{"r"}, "r", "compare H vs R"),
		EditWitness: b([]string{"e"}, "e", "witness editor"),
		Annotate:    b([]string{"a"}, "a", "note on this event"),
		Evidence:    b([]string{"v"}, "v", "jump to evidence"),
		WholeState:  b([]string{"w"}, "w", "whole state ↔ touched entities"),
		FullTurns:   b([]string{"f"}, "f", "conversation turns whole ↔ cut"),
		OpenEvent:   b([]string{"enter"}, "enter", "open the event"),
		StateDiff:   b([]string{"d"}, "d", "state diff H vs A"),
		Collateral:  b([]string{"x"}, "x", "collateral: cells A ends with apart from H"),
		Checks:      b([]string{"b"}, "b", "gold actions, reward basis"),

		Add:        b([]string{"a"}, "a", "add step"),
		Insert:     b([]string{"i"}, "i", "insert step before"),
		EditStep:   b([]string{"enter", "e"}, "enter/e", "edit"),
		DeleteStep: b([]string{"d", "x"}, "d", "delete"),
		MoveUp:     b([]string{"K", "shift+up"}, "K", "move step up"),
		MoveDown:   b([]string{"J", "shift+down"}, "J", "move step down"),
		Undo:       b([]string{"u"}, "u", "undo"),
		Redo:       b([]string{"ctrl+r", "U"}, "ctrl+r", "redo"),
		Save:       b([]string{"s", "ctrl+s"}, "s", "save"),
		Export:     b([]string{"E"}, "E", "export JSON"),
		Mode:       b([]string{"m"}, "m", "witness ↔ rollback"),
		UndoStep:   b([]string{"z"}, "z", "inverse step"),
		Line:       b([]string{":"}, ":", "type step"),
		Complete:   b([]string{"tab"}, "tab", "complete"),

		FieldNext: b([]string{"tab", "down"}, "tab/↓", "next field"),
		FieldPrev: b([]string{"shift+tab", "up"}, "shift+tab/↑", "prev field"),
		PickNext:  b([]string{"ctrl+n"}, "ctrl+n", "next allowed value"),
		PickPrev:  b([]string{"ctrl+p"}, "ctrl+p", "prev allowed value"),
		Submit:    b([]string{"enter"}, "enter", "apply"),
		Cancel:    b([]string{"esc"}, "esc", "cancel"),

		// One search at a time: while one runs, S cancels it rather than
		// starting another.
		Attack:       b([]string{"S"}, "S", "search attacker"),
		AttackCancel: b([]string{"esc", "S"}, "esc/S", "cancel search"),
		ValueNext:    b([]string{"right", "l"}, "→/l", "next value"),
		ValuePrev:    b([]string{"left", "h"}, "←/h", "prev value"),
		StartSearch:  b([]string{"enter"}, "enter", "start search"),
		ShowCompare:  b([]string{"enter", "c"}, "enter/c", "compare H vs witness"),
		ShowEditor:   b([]string{"e"}, "e", "edit witness"),
		Dismiss:      b([]string{"esc"}, "esc", "dismiss"),

		Advance: b([]string{" ", "l", "right", "enter", "pgdown", "down"}, "space", "next scene"),
		Rewind:  b([]string{"b", "h", "left", "backspace", "pgup", "up"}, "b", "previous scene"),
	}
}
