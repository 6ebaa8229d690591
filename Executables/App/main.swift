import App

// `app`: every command, on the embedded backend or any server (App's `AppMain`).
await AppMain.main()
