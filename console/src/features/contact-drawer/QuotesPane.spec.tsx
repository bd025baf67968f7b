import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import * as stories from './QuotesPane.stories';

const { Portal, DrawerButton, DrawerButtonNoClient } = composeStories(stories);

describe("'Orçamentos' (seed 001 §8)", () => {
  it("frames the portal the server built for the chat's contact, sandboxed, with a close button", async () => {
    render(<Portal />);
    const frame = (await screen.findByTitle('Orçamentos')) as HTMLIFrameElement;
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('src')).toMatch(/^data:text\/html,/);
    expect(frame.getAttribute('sandbox')).toContain('allow-scripts');
    expect(screen.getByRole('heading', { name: 'Orçamentos' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Fechar' })).toBeTruthy();
  });

  it('opens the portal beside the chat from the drawer when the contact has a client', async () => {
    render(<DrawerButton />);
    const stores = DrawerButton.parameters.stores as ReturnType<typeof stories.drawerStores>;
    fireEvent.click(await screen.findByRole('button', { name: 'Orçamentos' }));
    await waitFor(() => expect(stores.ui.get().openRooms).toEqual(['room-1', 'quotes:room-1']));
    expect(stores.ui.get().drawerRoomId).toBe('room-1');
  });

  it("says 'Associe o Contato a um cliente para fazer um orçamento' and opens nothing without a client", async () => {
    render(<DrawerButtonNoClient />);
    const stores = DrawerButtonNoClient.parameters.stores as ReturnType<typeof stories.drawerStores>;
    fireEvent.click(await screen.findByRole('button', { name: 'Orçamentos' }));
    expect(await screen.findByText('Associe o Contato a um cliente para fazer um orçamento')).toBeTruthy();
    expect(stores.ui.get().openRooms).toEqual(['room-1']);
  });
});
