// Loaded with --import into each test file's process (run.sh).
import { register } from "node:module";

register("./case_loader.mjs", import.meta.url);
