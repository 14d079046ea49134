package compat

import "testing"

func TestParse(t *testing.T) {
	for in, want := range map[string]Level{"": Current, "3.14": DRF314} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"3.18", "3.14.0", "314", " 3.14"} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) accepted", in)
		}
	}
}

type policy struct{ level Level }

func (p policy) WithCompatibility(l Level) policy { p.level = l; return p }

func TestApplyCopies(t *testing.T) {
	in := []policy{{}, {}}
	out := Apply(in, DRF314)
	if out[0].level != DRF314 || out[1].level != DRF314 {
		t.Errorf("Apply set %v", out)
	}
	if in[0].level != Current {
		t.Error("Apply changed the settings' own list")
	}
}
