import { rowMatches } from '@forecourt/contract/formatters';
import { Card, Code, Table, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHeaderSearch } from '../../../../lib/search-store.ts';
import { UiFeaturePage } from './ui-feature-page.tsx';

const ROWS = [
  { site: 'Leeds Road', terminal: '0101-1', status: 'on' },
  { site: 'Leeds Road', terminal: '0101-2', status: 'off' },
  { site: 'Harbour Way', terminal: '0207-1', status: 'on' },
  { site: 'Kings Cross', terminal: '0310-3', status: 'on' },
];

export default function SearchFieldsPage() {
  const { t } = useTranslation();
  const headerSearch = useHeaderSearch();
  const [filter, setFilter] = useState('');
  const rows = ROWS.filter((row) => rowMatches(row, filter));
  return (
    <UiFeaturePage title={t('UI_SEARCH_FIELDS')} intro={t('UI_SEARCH_FIELDS_TEXT')}>
      <Card>
        <Text size="sm">
          {t('HEADER_SEARCH_EMITS')} <Code data-testid="header-search-echo">{headerSearch || '∅'}</Code>
        </Text>
      </Card>
      <Card>
        <TextInput
          label={t('TABLE_FILTER')}
          placeholder="Leeds, 0101, off..."
          leftSection={<IconSearch size={16} />}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          mb="sm"
        />
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('SITES')}</Table.Th>
              <Table.Th>{t('TERMINALS')}</Table.Th>
              <Table.Th>{t('STATUS')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.terminal}>
                <Table.Td>{row.site}</Table.Td>
                <Table.Td>{row.terminal}</Table.Td>
                <Table.Td>{row.status}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
    </UiFeaturePage>
  );
}
