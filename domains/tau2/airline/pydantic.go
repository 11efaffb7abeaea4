package airline

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/parthack/parthack/domains/tau2"
)

// pydanticVersion is the version tau2's validation errors link to in
// the shipped runs (errors.pydantic.dev/2.12/…): the port writes their
// text, so a replay compares equal.
const pydanticVersion = "2.12"

// kind is a model field's declared type, as pydantic validates it in its
// default (lax) mode.
type kind struct {
	name    string   // str, int, float, literal, list, model
	values  []string // literal's members
	model   *pmodel  // list's item or model
	display string   // a literal's members as pydantic lists them
}

// pmodel is a pydantic model: its name and fields in declaration order.
type pmodel struct {
	name   string
	fields []pfield
}

type pfield struct {
	name string
	kind kind
}

var (
	kStr   = kind{name: "str"}
	kInt   = kind{name: "int"}
	kFloat = kind{name: "float"}
)

func literal(values ...string) kind {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = "'" + v + "'"
	}
	display := quoted[0]
	if len(quoted) > 1 {
		display = strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1]
	}
	return kind{name: "literal", values: values, display: display}
}

func listOf(m *pmodel) kind { return kind{name: "list", model: m} }

var (
	flightInfoModel = &pmodel{name: "FlightInfo", fields: []pfield{{"flight_number", kStr}, {"date", kStr}}}
	passengerModel  = &pmodel{name: "Passenger", fields: []pfield{{"first_name", kStr}, {"last_name", kStr}, {"dob", kStr}}}
	paymentModel    = &pmodel{name: "Payment", fields: []pfield{{"payment_id", kStr}, {"amount", kInt}}}
	flightTypeKind  = literal("round_trip", "one_way")
	cabinKind       = literal("business", "economy", "basic_economy")
	insuranceKind   = literal("yes", "no")
)

// instance is a value a model already validated: pydantic takes it as it
// is where a field wants that model.
type instance struct {
	model *pmodel
	obj   tau2.Obj
}

// lineError is one error of a ValidationError.
type lineError struct {
	loc   string
	msg   string
	typ   string
	input any
}

// validationError is str(ValidationError): a count line, then each error
// with its location, message, type, the input's (shortened) repr and
// type, and pydantic's link.
func validationError(model string, errs []lineError) string {
	var b strings.Builder
	s := "s"
	if len(errs) == 1 {
		s = ""
	}
	fmt.Fprintf(&b, "%d validation error%s for %s", len(errs), s, model)
	for _, e := range errs {
		fmt.Fprintf(&b, "\n%s\n  %s [type=%s, input_value=%s, input_type=%s]\n    For further information visit https://errors.pydantic.dev/%s/v/%s",
			e.loc, e.msg, e.typ, shortRepr(e.input), inputType(e.input), pydanticVersion, e.typ)
	}
	return b.String()
}

func inputType(x any) string {
	if in, ok := x.(instance); ok {
		return in.model.name
	}
	return pyType(x)
}

// shortRepr is the input's repr as pydantic shows it: over 50 characters,
// its first 25 and last 24 around "...".
func shortRepr(x any) string {
	var r string
	if in, ok := x.(instance); ok {
		r = instanceRepr(in)
	} else {
		r = pyRepr(x)
	}
	if rs := []rune(r); len(rs) > 50 {
		return string(rs[:25]) + "..." + string(rs[len(rs)-24:])
	}
	return r
}

// instanceRepr is a model's repr: Name(field=value, …).
func instanceRepr(in instance) string {
	parts := make([]string, len(in.obj))
	for i, m := range in.obj {
		parts[i] = m.Key + "=" + pyRepr(m.Value)
	}
	return in.model.name + "(" + strings.Join(parts, ", ") + ")"
}

// validateModel validates a dict as the model's fields (extra keys are
// ignored, as pydantic's default does); the result holds the fields in
// declaration order.
func validateModel(m *pmodel, o tau2.Obj, loc string) (tau2.Obj, []lineError) {
	var errs []lineError
	out := make(tau2.Obj, 0, len(m.fields))
	for _, f := range m.fields {
		at := join(loc, f.name)
		x, ok := o.Get(f.name)
		if !ok {
			errs = append(errs, lineError{at, "Field required", "missing", o})
			continue
		}
		v, es := validate(f.kind, x, at)
		errs = append(errs, es...)
		out = append(out, tau2.Member{Key: f.name, Value: v})
	}
	return out, errs
}

func join(loc, name string) string {
	if loc == "" {
		return name
	}
	return loc + "." + name
}

// validate is one field's lax validation: the value it holds, or errors.
func validate(k kind, x any, loc string) (any, []lineError) {
	fail := func(msg, typ string) (any, []lineError) { return nil, []lineError{{loc, msg, typ, x}} }
	switch k.name {
	case "str":
		if s, ok := x.(string); ok {
			return s, nil
		}
		return fail("Input should be a valid string", "string_type")
	case "int":
		return validateInt(x, fail)
	case "float":
		return validateFloat(x, fail)
	case "literal":
		for _, v := range k.values {
			if pyEqStr(x, v) {
				return v, nil
			}
		}
		return fail("Input should be "+k.display, "literal_error")
	case "list":
		xs, ok := x.([]any)
		if !ok {
			return fail("Input should be a valid list", "list_type")
		}
		out := make([]any, len(xs))
		var errs []lineError
		for i, it := range xs {
			at := join(loc, strconv.Itoa(i))
			switch v := it.(type) {
			case instance:
				out[i] = v.obj
			case tau2.Obj:
				o, es := validateModel(k.model, v, at)
				out[i] = o
				errs = append(errs, es...)
			default:
				errs = append(errs, lineError{at, "Input should be a valid dictionary or instance of " + k.model.name, "model_type", it})
			}
		}
		return out, errs
	}
	panic("airline: no validator for " + k.name)
}

func validateInt(x any, fail func(msg, typ string) (any, []lineError)) (any, []lineError) {
	switch v := x.(type) {
	case int64:
		return v, nil
	case bool:
		if v {
			return int64(1), nil
		}
		return int64(0), nil
	case float64:
		switch {
		case math.IsInf(v, 0) || math.IsNaN(v):
			return fail("Input should be a finite number", "finite_number")
		case v != math.Trunc(v):
			return fail("Input should be a valid integer, got a number with a fractional part", "int_from_float")
		case math.Abs(v) >= 1<<63:
			return fail("Unable to parse input string as an integer, exceeded maximum size", "int_parsing_size")
		}
		return int64(v), nil
	case string:
		s := strings.TrimSpace(v)
		if whole, frac, ok := strings.Cut(s, "."); ok && strings.Trim(frac, "0") == "" {
			s = whole
		}
		if i, err := strconv.ParseInt(s, 10, 64); err == nil && s != "" {
			return i, nil
		}
		return fail("Input should be a valid integer, unable to parse string as an integer", "int_parsing")
	}
	return fail("Input should be a valid integer", "int_type")
}

func validateFloat(x any, fail func(msg, typ string) (any, []lineError)) (any, []lineError) {
	switch v := x.(type) {
	case int64:
		return float64(v), nil
	case bool:
		if v {
			return 1.0, nil
		}
		return 0.0, nil
	case float64:
		return v, nil
	case string:
		s := strings.TrimSpace(v)
		if f, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "_xXpP") {
			return f, nil
		}
		return fail("Input should be a valid number, unable to parse string as a number", "float_parsing")
	}
	return fail("Input should be a valid number", "float_type")
}
