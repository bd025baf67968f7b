import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import portugueseMessages from 'ra-language-portuguese';
import { mergeTranslations, type TranslationMessages } from 'react-admin';
import { messages } from '@atendimento/schemas';

/**
 * react-admin in pt-BR: ra-language-portuguese (written for react-admin 3) plus the keys
 * react-admin 5 added since, and the seed's own texts where react-admin has an equivalent
 * ('Esta lista está vazia', 'Tem certeza que quer deletar o item?'). English stays underneath
 * only so a key added by a future react-admin shows text rather than its name.
 */
const addedInRa5 = {
  ra: {
    action: {
      clear_array_input: 'Limpar a lista',
      create_item: 'Criar %{item}',
      remove_all_filters: 'Remover todos os filtros',
      reset: 'Redefinir',
      search_columns: 'Buscar colunas',
      select_all: 'Selecionar tudo',
      select_all_button: 'Selecionar tudo',
      select_row: 'Selecionar esta linha',
      unselect: 'Desmarcar',
      open_menu: 'Abrir menu',
      close_menu: 'Fechar menu',
      update: 'Atualizar',
      move_up: 'Mover para cima',
      move_down: 'Mover para baixo',
      open: 'Abrir',
      toggle_theme: 'Alternar tema claro/escuro',
      select_columns: 'Colunas',
      update_application: 'Recarregar aplicação',
    },
    boolean: { null: ' ' },
    page: {
      empty: messages.table.empty,
      invite: 'Deseja adicionar um?',
      access_denied: 'Acesso negado',
      authentication_error: 'Erro de autenticação',
      loading: messages.table.loading,
    },
    input: { password: { toggle_visible: 'Ocultar senha', toggle_hidden: 'Mostrar senha' } },
    message: {
      access_denied: 'Você não tem permissão para acessar esta página',
      authentication_error: 'O servidor de autenticação retornou um erro e suas credenciais não puderam ser verificadas.',
      auth_error: 'Ocorreu um erro ao validar o token de autenticação.',
      bulk_update_content: 'Tem certeza que quer atualizar %{name} %{recordRepresentation}? |||| Tem certeza que quer atualizar estes %{smart_count} itens?',
      bulk_update_title: 'Atualizar %{name} %{recordRepresentation} |||| Atualizar %{smart_count} %{name}',
      clear_array_input: 'Tem certeza que quer limpar a lista inteira?',
      select_all_limit_reached: 'Há elementos demais para selecionar todos. Apenas os primeiros %{max} foram selecionados.',
      unsaved_changes: 'Algumas alterações não foram salvas. Tem certeza que quer ignorá-las?',
      placeholder_data_warning: 'Problema de rede: falha ao atualizar os dados.',
      delete_content: messages.table.confirmDelete,
      loading: messages.table.loading,
    },
    navigation: {
      no_results: messages.table.noRecords,
      clear_filters: 'Limpar filtros',
      no_filtered_results: 'Nenhum %{name} encontrado com os filtros atuais.',
      partial_page_range_info: '%{offsetBegin}-%{offsetEnd} de mais de %{offsetEnd}',
      current_page: 'Página %{page}',
      page: 'Ir para a página %{page}',
      first: 'Ir para a primeira página',
      last: 'Ir para a última página',
      previous: 'Ir para a página anterior',
      skip_nav: 'Pular para o conteúdo',
    },
    sort: { sort_by: 'Ordenar por %{field_lower_first} %{order}', ASC: 'crescente', DESC: 'decrescente' },
    auth: { email: 'E-mail' },
    notification: {
      not_authorized: messages.auth.forbidden,
      application_update_available: 'Uma nova versão está disponível.',
      offline: 'Sem conexão. Não foi possível buscar os dados.',
    },
    validation: { unique: 'Deve ser único' },
    saved_queries: {
      label: 'Consultas salvas',
      query_name: 'Nome da consulta',
      new_label: 'Salvar consulta atual...',
      new_dialog_title: 'Salvar consulta atual como',
      remove_label: 'Remover consulta salva',
      remove_label_with_name: 'Remover consulta "%{name}"',
      remove_dialog_title: 'Remover consulta salva?',
      remove_message: 'Tem certeza que quer remover este item da sua lista de consultas salvas?',
      help: 'Filtre a lista e salve esta consulta para depois',
    },
    guesser: { empty: { title: 'Sem dados para exibir', message: 'Verifique o provedor de dados' } },
    configurable: {
      customize: 'Personalizar',
      configureMode: 'Configurar esta página',
      inspector: {
        title: 'Inspetor',
        content: 'Passe o mouse sobre os elementos da interface para configurá-los',
        reset: 'Redefinir configurações',
        hideAll: 'Ocultar tudo',
        showAll: 'Mostrar tudo',
      },
      Datagrid: { title: 'Tabela', unlabeled: 'Coluna sem rótulo #%{column}' },
      SimpleForm: { title: 'Formulário', unlabeled: 'Campo sem rótulo #%{input}' },
      SimpleList: { title: 'Lista', primaryText: 'Texto principal', secondaryText: 'Texto secundário', tertiaryText: 'Texto terciário' },
    },
  },
};

const ptBrMessages = mergeTranslations(
  englishMessages,
  portugueseMessages as unknown as TranslationMessages,
  addedInRa5,
) as TranslationMessages;

/** The i18nProvider the app passes to <Admin> (pt-BR only). */
export const i18nProvider = polyglotI18nProvider(() => ptBrMessages, 'pt-BR', [{ locale: 'pt-BR', name: 'Português' }], { allowMissing: true });
