import App

// `app-server`: what `app serve` becomes (App's `ServerProgram`), with the server that `app`
// leaves out. The command line is `app serve`'s, read by the same command.
var io = AppIO.standard
io.seams.serve = { settings, io in try await ServeFeature(io: io).serve(settings) }
await AppMain.main(io: io, servesOnly: true)
