"""The simulated board: the renderer with ground truth (`render`) and a live board
whose coins can be struck into pockets (`live`), for the benchmark, the tests and
`make run` without a camera."""
