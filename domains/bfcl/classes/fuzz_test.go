package classes

import "testing"

// FuzzParseCall holds the call parser to never panicking, whatever text
// a model's call decodes to: it parses or gives an error.
func FuzzParseCall(f *testing.F) {
	for _, s := range []string{"mv(source='a', destination='b')", "ls(a=True", "f(x=[1, {'k': (2,)}], y=-1.5e3)",
		"f('\\x41\\u00e9\\U0001F600')", "a.b.c(1)(2)[3]", "f(**{})", "f(x=1 if y else 2)", "{1, 2}", "f(x='''\n''')",
		"f(0x1F, 0o7, 0b1, 1_000, 1j, .5, 5.)", "f(...=1)", "f(a=r'\\d')", "f(x=(1))", "f(not x)"} {
		f.Add(s)
	}
	s := &Session{names: []string{"m_e_A_instance"}, methods: map[string]int{"f": 0},
		Instances: []*Instance{{Class: &Class{Name: "A", Methods: map[string]*Method{}}}}}
	f.Fuzz(func(t *testing.T, src string) {
		ParseCall(src)
		s.Execute([]string{src})
		if len(s.Faults) > 0 {
			t.Fatalf("%q: %v", src, s.Faults)
		}
	})
}
