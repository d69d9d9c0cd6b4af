import { mount } from 'svelte';
import App from './App.svelte';
import { ready } from './shared/i18n/i18n.svelte.js';
import './styles.css';

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');
// The person's language is loaded first, so the page never flashes in English.
void ready().finally(() => mount(App, { target }));
