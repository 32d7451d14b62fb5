import { ActionIcon, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { emitHeaderSearch, useHeaderSearch } from '../../lib/search-store.ts';

export interface HeaderSearchProps {
  /** Called with the text on every keystroke (it is also published app-wide). */
  onSearch?: (text: string) => void;
}

/** The header search: an icon that expands into an input on click and collapses on blur. */
export function HeaderSearch({ onSearch }: HeaderSearchProps) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  const text = useHeaderSearch();

  if (!expanded) {
    return (
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={t('SEARCH')}
        onClick={() => setExpanded(true)}
      >
        <IconSearch size={20} />
      </ActionIcon>
    );
  }
  return (
    <TextInput
      className="fc-header-search"
      type="search"
      aria-label={t('SEARCH')}
      placeholder={t('SEARCH_PLACEHOLDER')}
      leftSection={<IconSearch size={16} />}
      value={text}
      autoFocus
      onChange={(event) => {
        const value = event.currentTarget.value;
        emitHeaderSearch(value);
        onSearch?.(value);
      }}
      onBlur={() => setExpanded(false)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') event.currentTarget.blur();
      }}
    />
  );
}
