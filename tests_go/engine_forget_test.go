package mxgotest

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/engine"
)

// Engine.Forget: an error its caller took from its own operation's Var and reported is
// not raised again by WaitAll; other errors still are.
func TestEngineForgetDropsOnlyThatError(t *testing.T) {
	e := threadedEngine(t)
	mine, theirs := engine.NewVar(), engine.NewVar()
	errMine, errTheirs := errors.New("mine"), errors.New("theirs")
	e.Push(func() error { return errMine }, nil, vars(mine))
	e.Push(func() error { return errTheirs }, nil, vars(theirs))
	err := e.WaitToRead(mine)
	require.ErrorIs(t, err, errMine)
	e.Forget(err)
	e.Forget(errors.New("never raised")) // nothing to drop
	assert.ErrorIs(t, waitAll(t, e), errTheirs)
	assert.NoError(t, waitAll(t, e))
	assert.NoError(t, e.WaitToRead(theirs)) // WaitAll took it
}
