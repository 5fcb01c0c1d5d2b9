package pybridge

import (
	"encoding/json"
	"sync"
)

type paramInfo struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Default string `json:"default"`
	Doc     string `json:"doc"`
}

type opInfo struct {
	ID       int         `json:"id"` // what fastpath.invoke takes (an index into opTable)
	Name     string      `json:"name"`
	Doc      string      `json:"doc"`
	Category string      `json:"category"`
	Inputs   []string    `json:"inputs"`
	Params   []paramInfo `json:"params"`
	DTypes   []string    `json:"dtypes"`
	InPlace  bool        `json:"inplace"`
	ScalarOp string      `json:"scalar_op,omitempty"`
	// Multi: an operator of several results (InferOuts), called through InvokeAll
	Multi bool `json:"multi,omitempty"`
}

var opInfoOnce = sync.OnceValue(func() string {
	var infos []opInfo
	for id, op := range opTable() {
		info := opInfo{ID: id, Name: op.Name, Doc: op.Doc, Category: string(op.Category), Inputs: op.Inputs,
			InPlace: op.InPlace, ScalarOp: op.ScalarOp, Multi: op.InferOuts != nil, Params: []paramInfo{}, DTypes: []string{}}
		for _, p := range op.Params {
			info.Params = append(info.Params, paramInfo{p.Name, string(p.Kind), p.Default, p.Doc})
		}
		for _, dt := range op.DTypes {
			info.DTypes = append(info.DTypes, dt.String())
		}
		infos = append(infos, info)
	}
	b, err := json.Marshal(infos)
	if err != nil {
		panic(err) // plain structs of strings always marshal
	}
	return string(b)
})

func opInfoJSON() string { return opInfoOnce() }
