return {} via route '/x' with optional params
