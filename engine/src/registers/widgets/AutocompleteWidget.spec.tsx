import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import { recordedCalls } from '../../stories/fakeApi';
import * as stories from './AutocompleteWidget.stories';

const { Several, One } = composeStories(stories);
const submitted = () => JSON.parse(screen.getByTestId('submitted').textContent!);
const lookups = () => recordedCalls().filter((call) => call.path.startsWith('/api/lookup/agents'));

describe('AutocompleteWidget', () => {
  it('titles the saved ids by one lookup and adds a record found by 3 letters', async () => {
    const user = userEvent.setup();
    render(<Several />);
    expect(await screen.findByRole('button', { name: 'Ana Agente' })).toBeTruthy();
    expect(lookups().map((call) => decodeURIComponent(call.path))).toEqual(['/api/lookup/agents?ids=["u-ana"]']);
    await user.type(screen.getByRole('combobox', { name: 'Agentes' }), 'bru');
    await user.click(await screen.findByRole('option', { name: 'Bruno Souza' }));
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(submitted()).toEqual({ agents: ['u-ana', 'u-bruno'] });
  });

  it("asks for 3 letters before searching ('Digite para buscar (min. 3)'), then keeps one id", async () => {
    const user = userEvent.setup();
    render(<One />);
    const box = screen.getByRole('combobox', { name: 'Agente' });
    expect(box.getAttribute('placeholder')).toBe(messages.validation.autocompleteHint);
    await user.type(box, 'an');
    expect(screen.getAllByText(messages.validation.autocompleteHint).length).toBeGreaterThan(0);
    // Typing two letters starts no search: the next letter's search is the first one.
    await user.type(box, 'a');
    await user.click(await screen.findByRole('option', { name: 'Ana Agente' }));
    expect(lookups().map((call) => decodeURIComponent(call.path))).toEqual(['/api/lookup/agents?q=ana']);
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(submitted()).toEqual({ agent: 'u-ana' });
  });
});
