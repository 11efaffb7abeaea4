package payload

import (
	"strconv"

	"github.com/parthack/parthack/model"
)

// AppendExpr appends the canonical JSON of a predicate expression in the
// task file's syntax (see model.DecodeTask): one key naming the form, the
// keys of its body in the order that documentation gives, optional keys
// left out when empty. model.DecodePredicates reads the bytes back to an
// equal expression.
func AppendExpr(b []byte, e *model.Expr) []byte {
	b = append(b, `{"`...)
	b = append(b, e.Kind...)
	b = append(b, `":`...)
	switch e.Kind {
	case model.ExprAll, model.ExprAny:
		b = append(b, '[')
		for i := range e.Args {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendExpr(b, &e.Args[i])
		}
		b = append(b, ']')
	case model.ExprNot:
		if len(e.Args) == 1 {
			b = AppendExpr(b, &e.Args[0])
		} else {
			b = append(b, "null"...) // not a valid expression: decoding rejects it
		}
	case model.ExprAlive, model.ExprAbsent:
		b = appendEntity(b, e)
		b = append(b, '}')
	case model.ExprField:
		b = appendEntity(b, e)
		b = append(b, ',')
		b = appendCond(b, e.Field, e.Cmp, e.Value, e.Values)
		b = append(b, '}')
	case model.ExprRef:
		b = appendEntity(b, e)
		b = appendStr(append(b, `,"field":`...), e.Field)
		if e.Target != "" {
			b = appendStr(append(b, `,"target":`...), e.Target)
		}
		b = append(b, '}')
	case model.ExprCount:
		b = appendStr(append(b, `{"type":`...), e.Type)
		if len(e.Where) > 0 {
			b = append(b, `,"where":[`...)
			for i, w := range e.Where {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, '{')
				b = appendCond(b, w.Field, w.Cmp, w.Value, w.Values)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		b = appendStr(append(b, `,"cmp":`...), string(e.Cmp))
		b = strconv.AppendInt(append(b, `,"n":`...), e.N, 10)
		b = append(b, '}')
	default:
		b = append(b, "null"...)
	}
	return append(b, '}')
}

// appendEntity opens an expression body naming one entity.
func appendEntity(b []byte, e *model.Expr) []byte {
	b = appendStr(append(b, `{"type":`...), e.Type)
	return appendStr(append(b, `,"id":`...), e.ID)
}

// appendCond writes "field", "cmp" and "value" (or "values" for in).
func appendCond(b []byte, field string, cmp model.Cmp, value model.Value, values []model.Value) []byte {
	b = appendStr(append(b, `"field":`...), field)
	b = appendStr(append(b, `,"cmp":`...), string(cmp))
	if cmp == model.CmpIn {
		b = append(b, `,"values":[`...)
		for i, v := range values {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendValue(b, v)
		}
		return append(b, ']')
	}
	return appendValue(append(b, `,"value":`...), value)
}
