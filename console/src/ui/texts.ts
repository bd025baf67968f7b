/**
 * Console texts the seeds do not quote (menu labels, buttons, aria labels), worded like the
 * seed's own. Texts the seeds quote live in @atendimento/schemas `messages` and are used from there.
 */
export const texts = {
  menu: {
    open: 'Opções do chat',
    enter: 'Entrar no chat',
    leave: 'Sair do chat',
    transfer: 'Transferir',
    queues: 'Filas',
    tags: 'Tags',
    close: 'Encerrar',
    closeNoMessage: 'Encerrar sem aviso',
    markRead: 'Marcar como lido',
    markUnread: 'Marcar como não lido',
    contact: 'Contato',
    // The X hides the pane; the chat stays open in 'Meus' ('Encerrar' in the menu ends it).
    closePane: 'Ocultar chat',
  },
  onHold: {
    search: 'Buscar',
    cancel: 'Cancelar',
    confirm: 'Confirmar',
    resume: 'Retirar chat da espera',
  },
  tags: {
    title: 'Tags',
    search: 'Buscar',
    save: 'Salvar',
    close: 'Fechar',
  },
  closeDialog: {
    title: 'Encerrar chat',
    titleNoMessage: 'Encerrar chat sem aviso',
    justify: 'Justificativa',
    obs: 'Observação',
    nextContact: 'Próximo contato (DD/MM/AAAA)',
    cancel: 'Cancelar',
    confirm: 'Encerrar',
  },
  list: {
    scrollToBottom: 'Ir para o fim',
    loadingOlder: 'Carregando mensagens anteriores',
  },
  composer: {
    placeholder: 'Digite uma mensagem',
    send: 'Enviar',
    attach: 'Anexar',
    photosVideos: 'Fotos e vídeos',
    document: 'Documento',
    audio: 'Áudio',
    emoji: 'Emojis',
    internalNote: 'Anotação interna',
    cancelReply: 'Cancelar resposta',
    preview: 'Pré-visualizar',
    cancel: 'Cancelar',
    confirm: 'Enviar',
    remove: 'Remover',
    save: 'Salvar',
    counter: 'Caracteres restantes',
    fixedMessages: 'Mensagens fixas',
    closedChat: 'Chat encerrado',
    record: 'Gravar áudio',
    stopRecording: 'Parar gravação',
    discardRecording: 'Descartar áudio',
    microphoneHelp: 'Para gravar áudios, permita o uso do microfone nas configurações do navegador e tente novamente.',
  },
  drawer: {
    title: 'Contato',
    close: 'Fechar',
    history: 'Histórico de chats',
    seeMore: 'Ver mais',
    editContact: 'Editar Contato',
  },
  filters: {
    channels: 'Canais',
  },
  survey: {
    noComment: 'Sem comentário do cliente.',
    close: 'Fechar',
  },
  /** A closed chat's header (seed 001 §2 "Chat history"): when it was opened and closed. */
  historyRange: 'De {from} a {to}',
  /** A closed chat's header: who closed it and what they wrote (justification, observation, next contact). */
  closedBy: 'Encerrado por {name}',
  closedObs: 'Obs.: {obs}',
  closedNextContact: 'Próximo contato: {date}',
  /** Seed 001 §2 toggles of 'Histórico' for a salesman (vendHistory), spelled as the seed quotes them. */
  history: {
    views: 'Histórico',
    mine: 'Meu Histórico',
    clients: 'Hitorico dos meus clientes',
  },
  queueChips: {
    seeMore: 'Ver mais',
    seeLess: 'Ver menos',
    clear: 'Limpar filtro',
  },
  contactEdit: {
    title: 'Editar Contato',
    blocks: 'Bloqueios',
    cancel: 'Cancelar',
    submit: 'Enviar',
  },
  service: {
    noChatOpen: 'Selecione um chat para começar o atendimento',
    loadingChat: 'Carregando o chat',
  },
  /** An inbound file whose download from the provider failed (the error renderer with 'recarregar'). */
  mediaFailed: {
    image: 'Não foi possível baixar a imagem.',
    video: 'Não foi possível baixar o vídeo.',
    audio: 'Não foi possível baixar o áudio.',
    sticker: 'Não foi possível baixar a figurinha.',
    document: 'Não foi possível baixar o documento.',
    namedDocument: 'Não foi possível baixar o documento "{name}".',
  },
} as const;
