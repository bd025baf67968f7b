import { afterEach, describe, expect, it, vi } from 'vitest';
import { composeStories, composeStory } from '@storybook/react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import * as stories from './Composer.stories';
import { composerApi } from './Composer.stories';
import { uploadLimitError } from './uploads';

const s = composeStories(stories);
const emptyWith = (parameters: Record<string, unknown>) => composeStory(stories.Empty, { ...stories.default, parameters } as Parameters<typeof composeStory>[1]);
const box = () => screen.getByRole('textbox', { name: 'Digite uma mensagem' }) as HTMLTextAreaElement;
const posts = (api: ReturnType<typeof composerApi>, path = '/api/rooms/room-1/message') => api.calls.filter((c) => c.method === 'POST' && c.path === path);
const MB = 1024 * 1024;
function fileOf(name: string, type: string, size = 1000): File {
  const f = new File(['x'], name, { type });
  Object.defineProperty(f, 'size', { value: size });
  return f;
}

afterEach(() => vi.useRealTimers());

describe('Composer (seed 001 §5 "Message box", §2 footer)', () => {
  it('Enter sends with an idempotency key; Shift+Enter and Ctrl+Enter do not; empty text is not sent', async () => {
    const api = composerApi();
    const Story = emptyWith({ api });
    render(<Story />);
    fireEvent.keyDown(box(), { key: 'Enter' });
    fireEvent.change(box(), { target: { value: 'Olá Maria' } });
    fireEvent.keyDown(box(), { key: 'Enter', shiftKey: true });
    fireEvent.keyDown(box(), { key: 'Enter', ctrlKey: true });
    expect(posts(api)).toHaveLength(0);
    expect(box().value).toBe('Olá Maria\n');
    fireEvent.keyDown(box(), { key: 'Enter' });
    await waitFor(() => expect(posts(api)).toHaveLength(1));
    const body = posts(api)[0]!.body as { text: string; clientId: string };
    expect(body.text).toBe('Olá Maria');
    expect(body.clientId).toMatch(/[0-9a-f-]{20,}/);
    expect(box().value).toBe('');
  });

  it('shows the circular counter only after 5 characters', () => {
    const { container } = render(<s.Empty />);
    fireEvent.change(box(), { target: { value: '12345' } });
    expect(container.querySelector('[data-counter]')).toBeNull();
    fireEvent.change(box(), { target: { value: '123456' } });
    expect(container.querySelector('[data-counter]')!.getAttribute('data-counter')).toBe('3994');
  });

  it("over 4000 characters: 'Limite de caracteres excedido', box locked, truncated to 4000 after 3 s", async () => {
    // The toast is a lazy chunk: loaded before the clock is faked, so its import cannot eat the 3 s below.
    await import('../../ui/ToastSnackbar');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    render(<s.Empty />);
    fireEvent.change(box(), { target: { value: 'a'.repeat(4010) } });
    await act(async () => {});
    expect(screen.getByText('Limite de caracteres excedido')).toBeTruthy();
    expect(box().readOnly).toBe(true);
    await act(async () => { vi.advanceTimersByTime(2900); });
    expect(box().value).toHaveLength(4010);
    await act(async () => { vi.advanceTimersByTime(200); });
    expect(box().value).toHaveLength(4000);
    expect(box().readOnly).toBe(false);
  });

  it("internal-note mode shows 'Anotação Interna (não visível ao contato)' and sends annotation true", async () => {
    const api = composerApi();
    const Story = emptyWith({ api });
    render(<Story />);
    fireEvent.click(screen.getByRole('button', { name: 'Anotação interna' }));
    expect(screen.getByText('Anotação Interna (não visível ao contato)')).toBeTruthy();
    fireEvent.change(box(), { target: { value: 'Cliente VIP' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(posts(api)[0]!.body).toMatchObject({ text: 'Cliente VIP', annotation: true }));
  });

  it("'/' lists fixed messages filtered by text or tag; Enter picks one; '/tag' typed exactly is replaced", async () => {
    render(<s.Empty />);
    fireEvent.change(box(), { target: { value: '/hor' } });
    const list = await screen.findByRole('list', { name: 'Mensagens fixas' });
    expect(within(list).getAllByRole('button').map((b) => b.textContent)).toEqual([expect.stringContaining('/horario')]);
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(box().value).toBe('Atendemos de segunda a sexta, das 8h às 18h.');
    fireEvent.change(box(), { target: { value: '/saudacao' } });
    expect(box().value).toBe('/saudacao');
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(box().value).toBe('Olá! Como posso ajudar?');
    fireEvent.change(box(), { target: { value: '/horario ' } });
    expect(box().value).toBe('Atendemos de segunda a sexta, das 8h às 18h.');
  });

  it("the send button on an exact '/tag' puts its fixed message in the box, as Enter does; a second click sends that text", async () => {
    const api = composerApi();
    const Story = emptyWith({ api });
    render(<Story />);
    fireEvent.change(box(), { target: { value: '/' } });
    await screen.findByRole('list', { name: 'Mensagens fixas' });
    fireEvent.change(box(), { target: { value: '/saudacao' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(box().value).toBe('Olá! Como posso ajudar?');
    expect(posts(api)).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(posts(api)).toHaveLength(1));
    expect((posts(api)[0]!.body as { text: string }).text).toBe('Olá! Como posso ajudar?');
  });

  it('typing past a tag never expands it: /saudacao8kei691 stays as typed and is sent as typed', async () => {
    const api = composerApi();
    const Story = emptyWith({ api });
    render(<Story />);
    // Key by key, as an agent types (the list loaded at '/'): '/saudacao' is exact on the way to the longer text.
    fireEvent.change(box(), { target: { value: '/' } });
    await screen.findByRole('list', { name: 'Mensagens fixas' });
    for (const ch of 'saudacao8kei691') fireEvent.change(box(), { target: { value: box().value + ch } });
    expect(box().value).toBe('/saudacao8kei691');
    expect(screen.queryByRole('list', { name: 'Mensagens fixas' })).toBeNull();
    fireEvent.keyDown(box(), { key: 'Enter' });
    await waitFor(() => expect(posts(api)).toHaveLength(1));
    expect((posts(api)[0]!.body as { text: string }).text).toBe('/saudacao8kei691');
  });

  it('a fixed message with a file is sent through message/fileUrl', async () => {
    const api = composerApi();
    const Story = emptyWith({ api });
    render(<Story />);
    fireEvent.change(box(), { target: { value: '/cata' } });
    await screen.findByRole('list', { name: 'Mensagens fixas' });
    fireEvent.keyDown(box(), { key: 'Enter' });
    await waitFor(() => expect(posts(api, '/api/rooms/room-1/message/fileUrl')[0]!.body).toMatchObject({ fixedMessageId: 'fm-3' }));
  });

  it("without the fixedMessages claim '/' lists nothing", async () => {
    const api = composerApi();
    const Story = composeStory(stories.WithoutFixedMessages, { ...stories.default, parameters: { ...stories.WithoutFixedMessages.parameters, api } } as Parameters<typeof composeStory>[1]);
    render(<Story />);
    fireEvent.change(box(), { target: { value: '/hor' } });
    // Typing '/' asks for the fixed messages at once (an effect of the change): once every request is answered, none was.
    await act(() => api.settled());
    expect(screen.queryByRole('list', { name: 'Mensagens fixas' })).toBeNull();
    expect(api.calls.some((c) => c.path.startsWith('/api/fixedMessages'))).toBe(false);
  });

  it("attach menu offers 'Fotos e vídeos', 'Documento', 'Áudio'; a picked photo opens the preview with 'Insira uma legenda' and sends multipart", async () => {
    const api = composerApi();
    const Story = emptyWith({ api });
    const { container } = render(<Story />);
    fireEvent.click(screen.getByRole('button', { name: 'Anexar' }));
    expect(screen.getAllByRole('menuitem').map((m) => m.textContent)).toEqual(['Fotos e vídeos', 'Documento', 'Áudio']);
    expect(container.querySelector('[data-picker="media"]')!.getAttribute('accept')).toBe('image/*,video/*');
    expect(container.querySelector('[data-picker="audio"]')!.getAttribute('accept')).toBe('audio/*');
    fireEvent.change(container.querySelector('[data-picker="media"]')!, { target: { files: [fileOf('bolo.jpg', 'image/jpeg')] } });
    const dialog = await screen.findByRole('dialog', { name: 'Pré-visualizar' });
    fireEvent.change(within(dialog).getByPlaceholderText('Insira uma legenda'), { target: { value: 'Bolo de cenoura' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(posts(api, '/api/rooms/room-1/message/file?type=image')).toHaveLength(1));
    const form = posts(api, '/api/rooms/room-1/message/file?type=image')[0]!.body as FormData;
    expect(form.get('type')).toBe('image');
    expect(form.get('caption')).toBe('Bolo de cenoura');
    expect((form.get('file') as File).name).toBe('bolo.jpg');
    expect(form.get('clientId')).toBeTruthy();
  });

  it('pasted files go to the preview; oversized ones are refused with the seed messages', async () => {
    render(<s.Empty />);
    fireEvent.paste(box(), { clipboardData: { files: [fileOf('grande.png', 'image/png', 6 * MB)] } });
    expect(await screen.findByText('Upload máximo de imagem: 5MB')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.paste(box(), { clipboardData: { files: [fileOf('contrato.pdf', 'application/pdf', 2 * MB)] } });
    const dialog = await screen.findByRole('dialog', { name: 'Pré-visualizar' });
    expect(within(dialog).getByText(/contrato\.pdf/)).toBeTruthy();
    expect(uploadLimitError(fileOf('v.mp4', 'video/mp4', 17 * MB))).toBe('Upload máximo de imagem: 16MB');
    expect(uploadLimitError(fileOf('a.ogg', 'audio/ogg', 17 * MB))).toBe('Upload máximo de imagem: 16MB');
    expect(uploadLimitError(fileOf('d.zip', 'application/zip', 101 * MB))).toBe('Upload máximo suportado: 100MB');
    expect(uploadLimitError(fileOf('d.zip', 'application/zip', 99 * MB))).toBeNull();
  });

  it('replying shows the preview, sends replyTo and clears the preview', async () => {
    const api = composerApi();
    const Story = composeStory(stories.Replying, { ...stories.default, parameters: { api } } as Parameters<typeof composeStory>[1]);
    const { container } = render(<Story />);
    expect(within(container.querySelector('[data-reply-target]') as HTMLElement).getByText('Bom dia!')).toBeTruthy();
    fireEvent.change(box(), { target: { value: 'Bom dia, Maria!' } });
    fireEvent.keyDown(box(), { key: 'Enter' });
    await waitFor(() => expect(posts(api)[0]!.body).toMatchObject({ text: 'Bom dia, Maria!', replyTo: 'room-1-ext28' }));
    expect(container.querySelector('[data-reply-target]')).toBeNull();
  });

  it("a blocked contact shows 'Contato Bloqueado' and only internal notes can be sent", () => {
    render(<s.BlockedContact />);
    expect(screen.getByText('Contato Bloqueado')).toBeTruthy();
    expect(box().disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Anotação interna' }));
    expect(box().disabled).toBe(false);
  });

  it('the emoji picker inserts an emoji (12 per row)', () => {
    render(<s.Empty />);
    fireEvent.click(screen.getByRole('button', { name: 'Emojis' }));
    const picker = screen.getByRole('listbox', { name: 'Emojis' });
    expect(picker.style.gridTemplateColumns || getComputedStyle(picker).gridTemplateColumns).toContain('repeat(12');
    fireEvent.click(within(picker).getByRole('option', { name: '👍' }));
    expect(box().value).toBe('👍');
  });

  describe('audio recording (seed 001 §4 "Recording")', () => {
    class FakeRecorder {
      static isTypeSupported = (t: string) => t === 'audio/ogg;codecs=opus';
      state: 'inactive' | 'recording' = 'inactive';
      mimeType = 'audio/ogg;codecs=opus';
      ondataavailable: ((e: { data: Blob }) => void) | null = null;
      onstop: (() => void) | null = null;
      constructor(_stream: unknown, readonly options: { audioBitsPerSecond?: number }) {}
      start() { this.state = 'recording'; }
      stop() {
        this.state = 'inactive';
        this.ondataavailable?.({ data: new Blob(['OggS-audio'], { type: 'audio/ogg' }) });
        this.onstop?.();
      }
    }
    const track = { stop: vi.fn() };
    function withMedia(getUserMedia: () => Promise<unknown>) {
      vi.stubGlobal('MediaRecorder', FakeRecorder);
      Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true });
    }
    afterEach(() => vi.unstubAllGlobals());

    it('the mic shows while the box is empty; recording runs a mm:ss timer, stop previews, send uploads an audio file', async () => {
      withMedia(async () => ({ getTracks: () => [track] }));
      const api = composerApi();
      const Story = emptyWith({ api });
      const { container } = render(<Story />);
      fireEvent.change(box(), { target: { value: 'oi' } });
      expect(screen.queryByRole('button', { name: 'Gravar áudio' })).toBeNull();
      fireEvent.change(box(), { target: { value: '' } });
      fireEvent.click(screen.getByRole('button', { name: 'Gravar áudio' }));
      expect((await screen.findByRole('timer')).textContent).toBe('00:00');
      fireEvent.click(screen.getByRole('button', { name: 'Parar gravação' }));
      await waitFor(() => expect(container.querySelector('[data-recorder="preview"]')).toBeTruthy());
      fireEvent.click(within(container.querySelector('[data-recorder]') as HTMLElement).getByRole('button', { name: 'Enviar' }));
      await waitFor(() => expect(posts(api, '/api/rooms/room-1/message/file?type=audio')).toHaveLength(1));
      const form = posts(api, '/api/rooms/room-1/message/file?type=audio')[0]!.body as FormData;
      expect((form.get('file') as File).type).toBe('audio/ogg');
      expect((form.get('file') as File).name).toMatch(/\.ogg$/);
      expect(track.stop).toHaveBeenCalled();
      expect(container.querySelector('[data-recorder]')).toBeNull();
    });

    it("without microphone permission explains it in 'Permitir microfone'", async () => {
      withMedia(async () => { throw Object.assign(new Error('denied'), { name: 'NotAllowedError' }); });
      render(<s.Empty />);
      fireEvent.click(screen.getByRole('button', { name: 'Gravar áudio' }));
      expect(await screen.findByRole('dialog', { name: 'Permitir microfone' })).toBeTruthy();
      expect(screen.queryByRole('timer')).toBeNull();
    });
  });
});
