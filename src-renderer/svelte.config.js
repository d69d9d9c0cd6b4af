// Svelte 5: TypeScript in <script lang="ts"> is handled natively; runes everywhere.
export default { compilerOptions: { runes: true } };
