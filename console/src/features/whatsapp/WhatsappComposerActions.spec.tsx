import { describe, expect, it } from 'vitest';
import { composeStory } from '@storybook/react';
import { fireEvent, render, screen } from '@testing-library/react';
import { texts } from '../../ui/texts';
import * as composerStories from '../composer/Composer.stories';
import { openRoom } from '../../fixtures/conversation';
import { NOW } from '../../fixtures/chatFixtures';
import { windowClosed } from './WhatsappComposerActions';

const ago = (hours: number) => new Date(NOW - hours * 3600_000).toISOString();
const metaRoom = (contactHoursAgo: number | null) => ({
  ...openRoom, channel: 'meta' as const, channelId: 'wa-meta',
  lastMessages: { agentMessage: null, contactMessage: contactHoursAgo === null ? null : { createdAt: ago(contactHoursAgo), messageId: 'm-c' } },
});

describe('composer restriction (seed 001 §4): outside the 24-hour window only templates', () => {
  it('says so above the composer, with the template button, when the last contact message is a day old', () => {
    const Composer = composeStory(composerStories.Empty, composerStories.default);
    const { unmount } = render(<Composer room={metaRoom(30)} />);
    expect(screen.getByRole('status').textContent).toContain('Fora da janela de 24 horas');
    expect(screen.getByRole('button', { name: 'Template' })).toBeTruthy();
    // The text box takes no message to the customer (the server would answer 422); an internal note still goes.
    expect((screen.getByRole('textbox') as HTMLTextAreaElement).disabled).toBe(true);
    unmount();
    render(<Composer room={metaRoom(2)} />);
    expect(document.querySelector('[data-window-closed]')).toBeNull();
    expect((screen.getByRole('textbox') as HTMLTextAreaElement).disabled).toBe(false);
  });

  it('outside the window an internal note can still be written', () => {
    const Composer = composeStory(composerStories.Empty, composerStories.default);
    render(<Composer room={metaRoom(30)} />);
    fireEvent.click(screen.getByRole('button', { name: texts.composer.internalNote }));
    expect((screen.getByRole('textbox') as HTMLTextAreaElement).disabled).toBe(false);
  });

  it('the rule: Cloud API channels only; a recent last reply of the contact opens it; no whatsapp channel, no restriction', () => {
    expect(windowClosed(metaRoom(null), undefined, NOW)).toBe(true);
    expect(windowClosed(metaRoom(null), { id: 'c', channels: ['whatsapp'], ['wa-metaLastReply' as never]: ago(1) } as never, NOW)).toBe(false);
    expect(windowClosed(metaRoom(25), { id: 'c', channels: ['email'] }, NOW)).toBe(false);
    expect(windowClosed({ ...metaRoom(48), channel: 'zApi' }, undefined, NOW)).toBe(false);
    expect(windowClosed({ ...metaRoom(48), channel: 'dialog360' }, undefined, NOW)).toBe(true);
  });
});
